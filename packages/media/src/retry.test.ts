import { describe, expect, it } from 'vitest';
import { MEDIA_MAX_RETRIES } from '@frontdesk/protocol';
import { MediaError } from './errors.ts';
import { withRetry } from './retry.ts';

const fast = { retries: MEDIA_MAX_RETRIES, baseDelayMs: 0, maxDelayMs: 0 };

describe('withRetry', () => {
  it('gives up after spec §9 MEDIA_MAX_RETRIES retries', async () => {
    let attempts = 0;
    const failing = withRetry(
      async () => {
        attempts++;
        throw 'Request timed out';
      },
      { policy: fast },
    );
    await expect(failing).rejects.toMatchObject({ code: 'timeout' });
    expect(attempts).toBe(1 + MEDIA_MAX_RETRIES);
  });

  it('returns the first success and runs beforeRetry between attempts', async () => {
    const seen: number[] = [];
    const result = await withRetry(
      async (attempt) => {
        if (attempt < 2) throw 'Lost connection to the server (is it down?)';
        return attempt;
      },
      { policy: fast, beforeRetry: (_error, attempt) => void seen.push(attempt) },
    );
    expect(result).toBe(2);
    expect(seen).toEqual([1, 2]);
  });

  it('does not retry what a retry cannot fix', async () => {
    let attempts = 0;
    await expect(
      withRetry(
        async () => {
          attempts++;
          throw new MediaError('unauthorized', '433 wrong pin', 433);
        },
        { policy: fast },
      ),
    ).rejects.toMatchObject({ code: 'unauthorized' });
    expect(attempts).toBe(1);
  });

  it('stops waiting when aborted', async () => {
    const controller = new AbortController();
    const running = withRetry(
      async () => {
        throw 'Request timed out';
      },
      {
        policy: { retries: 5, baseDelayMs: 60_000, maxDelayMs: 60_000 },
        signal: controller.signal,
      },
    );
    controller.abort(new Error('closed'));
    await expect(running).rejects.toThrow('closed');
  });
});
