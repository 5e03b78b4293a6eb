import { describe, expect, it } from 'vitest';
import { callIdSchema, callRoomJid, formatCallId, parseCallId } from './call-id.ts';
import { queuePlace } from './calls.ts';

const username = `g${'xy23ab45'.repeat(3)}k`;

describe('call ids (spec §3: username, "--", suffix)', () => {
  it('round-trip through format and parse', () => {
    const callId = formatCallId(username, 'k9Z1');
    expect(callId).toBe(`${username}--k9Z1`);
    expect(parseCallId(callId)).toEqual({ username, suffix: 'k9Z1' });
  });

  it.each([
    '',
    username,
    `${username}--`,
    `--k9Z1`,
    `${username}--k9-Z1`,
    `${username}--k9--Z1`,
    'bad_user--k9Z1',
  ])('refuse %j', (callId) => {
    expect(parseCallId(callId)).toBeUndefined();
    expect(callIdSchema.safeParse(callId).success).toBe(false);
  });
});

describe('the call room and the queue place', () => {
  it('names the call room after the call id, lowercased as XMPP does', () => {
    expect(callRoomJid(`g${'a'.repeat(25)}--AbC1`, 'example.test')).toBe(
      `g${'a'.repeat(25)}--abc1@conference.example.test`,
    );
  });

  it('estimates the wait from the place and what the guest already waited, never below 0', () => {
    expect(queuePlace({ position: 2, waiting: 2 }, 60_000, 10_000)).toEqual({
      position: 2,
      waiting: 2,
      estimatedWaitMs: 110_000,
    });
    expect(queuePlace({ position: 1, waiting: 3 }, 60_000, 90_000).estimatedWaitMs).toBe(0);
  });
});
