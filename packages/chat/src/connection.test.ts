import { CHAT_MAX_RECONNECT_BACKOFF } from '@frontdesk/protocol';
import { expect, it } from 'vitest';
import { reconnectDelayMs } from './connection.ts';

it('tries again within 1.5 s of a drop, then doubles up to spec §9’s maximum apart', () => {
  const [earliest, latest] = [0, 0.999].map((random) =>
    [1, 2, 3, 4, 5, 6, 20].map((attempt) => reconnectDelayMs(attempt, random)),
  );
  expect(earliest).toEqual([500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
  expect(latest?.slice(0, 5).map(Math.round)).toEqual([1499, 1999, 2999, 4999, 8999]);
  expect(Math.max(...(latest ?? []))).toBe(CHAT_MAX_RECONNECT_BACKOFF * 1000);
});
