import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signAccessToken, verifyAccessToken, type Principal } from './access-token.ts';

const secret = 'an-api-token-secret-of-at-least-32-chars';
const guest: Principal = {
  role: 'guest',
  guestId: 7,
  companyId: 5,
  username: `g${'a'.repeat(25)}`,
};
const inAnHour = () => new Date(Date.now() + 3_600_000);

describe('access tokens', () => {
  it('carry the principal and nothing else through a round trip', async () => {
    const token = await signAccessToken(secret, guest, inAnHour());
    expect(await verifyAccessToken(secret, token)).toEqual(guest);
    const agent: Principal = { role: 'agent', staffId: 2, companyId: 5, sessionId: 4 };
    expect(
      await verifyAccessToken(secret, await signAccessToken(secret, agent, inAnHour())),
    ).toEqual(agent);
  });

  it('are refused when expired, under another secret, or not ours', async () => {
    const expired = await signAccessToken(secret, guest, new Date(Date.now() - 1000));
    expect(await verifyAccessToken(secret, expired)).toBeUndefined();
    const other = await signAccessToken(`${secret}-other`, guest, inAnHour());
    expect(await verifyAccessToken(secret, other)).toBeUndefined();
    expect(await verifyAccessToken(secret, 'not a token')).toBeUndefined();
    // Right key, but no issuer and audience of ours: e.g. an XMPP token signed with the same text.
    const foreign = await new SignJWT({ ...guest })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(secret));
    expect(await verifyAccessToken(secret, foreign)).toBeUndefined();
  });

  describe('verified once already', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('are refused once they expire, and under another secret', async () => {
      const token = await signAccessToken(secret, guest, inAnHour());
      expect(await verifyAccessToken(secret, token)).toEqual(guest);
      expect(await verifyAccessToken(`${secret}-other`, token)).toBeUndefined();
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 2 * 3_600_000);
      expect(await verifyAccessToken(secret, token)).toBeUndefined();
    });
  });

  it('are refused when the claims do not make a principal', async () => {
    const token = await signAccessToken(
      secret,
      { ...guest, role: 'owner' } as unknown as Principal,
      inAnHour(),
    );
    expect(await verifyAccessToken(secret, token)).toBeUndefined();
  });
});
