import { describe, expect, it } from 'vitest';
import { callIdSchema, formatCallId, parseCallId } from './call-id.ts';

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
