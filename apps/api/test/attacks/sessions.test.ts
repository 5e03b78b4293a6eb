import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, refreshedSchema, staffLoginSchema } from '@frontdesk/protocol';
import { DEMO_LOGINS } from '../../src/db/seed.ts';
import { buildTestApp, callApi, loginGuest, type TestApp } from '../helper.ts';

/**
 * Attack: a stolen or left-behind staff session keeps working after sign-out, deactivation or a
 * role change; a refresh token is used twice; a guest without a call reaches the media server.
 * Through the public REST interface only.
 */
describe('attack: sessions that outlive what ended them', () => {
  let t: TestApp;
  let nextAddress = 0;

  const signIn = async (email: string) => {
    const password = DEMO_LOGINS.find((l) => l.email === email)?.password;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      body: { email, password },
      // Each sign-in from an address of its own: the per-address login limit is not the subject.
      remoteAddress: `10.77.0.${(nextAddress += 1)}`,
    });
    expect(response.statusCode).toBe(200);
    return envelope(staffLoginSchema).parse(response.json()).data;
  };
  /** A staff-only route: the colleagues list. */
  const staffList = (token: string) => callApi(t.app, 'GET', 'staff', undefined, token);
  const refresh = (refreshToken: string) =>
    callApi(t.app, 'POST', 'auth/refresh', { refreshToken });

  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('gives staff a short access token and a refresh token that works once', async () => {
    const login = await signIn('ada@frontdesk.demo');
    const minutes = (Date.parse(login.accessTokenExpiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(9.9);
    expect(minutes).toBeLessThanOrEqual(10);
    const first = await refresh(login.refreshToken);
    expect(first.statusCode).toBe(200);
    const next = envelope(refreshedSchema).parse(first.json()).data;
    expect(next.refreshToken).not.toBe(login.refreshToken);
    expect((await staffList(next.access_token)).statusCode).toBe(200);
    // The used token is spent: whoever replays it (a thief, or the second of two tabs) is refused.
    const replay = await refresh(login.refreshToken);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error.code).toBe('session_ended');
  });

  it('gives staff a chat token that lasts a quarter of an hour, renewed with each refresh', async () => {
    // The JWT's own expiry, which is what the XMPP server checks.
    const minutesLeft = (token: string) => {
      const claims = decodeJwt(token);
      return ((claims.exp ?? 0) * 1000 - Date.now()) / 60_000;
    };
    const login = await signIn('di@frontdesk.demo');
    expect(minutesLeft(login.xmpp.password)).toBeGreaterThan(14.9);
    expect(minutesLeft(login.xmpp.password)).toBeLessThanOrEqual(15);
    const renewed = envelope(refreshedSchema).parse(
      (await refresh(login.refreshToken)).json(),
    ).data;
    expect(renewed.xmpp.jid).toBe(login.xmpp.jid);
    expect(minutesLeft(renewed.xmpp.password)).toBeGreaterThan(14.9);
    expect(decodeJwt(renewed.xmpp.password).jid).toBe(login.xmpp.jid);
  });

  it('sign-out ends the access token and the refresh token at once', async () => {
    const login = await signIn('bo@frontdesk.demo');
    expect((await staffList(login.access_token)).statusCode).toBe(200);
    const out = await callApi(t.app, 'POST', 'auth/logout', undefined, login.access_token);
    expect(out.statusCode).toBe(204);
    const after = await staffList(login.access_token);
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe('session_ended');
    expect((await refresh(login.refreshToken)).statusCode).toBe(401);
    // Another session of the same agent goes on.
    const other = await signIn('bo@frontdesk.demo');
    expect((await staffList(other.access_token)).statusCode).toBe(200);
  });

  it('deactivating a member ends its sessions and refuses its next sign-in', async () => {
    const login = await signIn('cy@frontdesk.demo');
    await t.app.db
      .updateTable('staff')
      .set({ active: false })
      .where('id', '=', login.user.id)
      .execute();
    expect((await staffList(login.access_token)).statusCode).toBe(401);
    expect((await refresh(login.refreshToken)).statusCode).toBe(401);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      body: {
        email: 'cy@frontdesk.demo',
        password: DEMO_LOGINS.find((l) => l.email === 'cy@frontdesk.demo')?.password,
      },
      remoteAddress: '10.77.1.1',
    });
    expect(again.statusCode).toBe(401);
  });

  it("a role change ends what the old role's tokens allowed", async () => {
    const login = await signIn('admin@frontdesk.demo');
    expect(login.user.role).toBe('admin');
    await t.app.db
      .updateTable('staff')
      .set({ role: 'agent' })
      .where('id', '=', login.user.id)
      .execute();
    expect((await staffList(login.access_token)).statusCode).toBe(401);
    // Signing in again gives a token of the new role.
    const fresh = await signIn('admin@frontdesk.demo');
    expect(fresh.user.role).toBe('agent');
    expect((await staffList(fresh.access_token)).statusCode).toBe(200);
  });

  it('refuses refresh tokens that are malformed (400) or unknown (401)', async () => {
    expect((await refresh('short')).statusCode).toBe(400);
    expect((await refresh('A'.repeat(43))).statusCode).toBe(401);
  });

  it('gives a guest no Janus token and no XMPP password until a call of its own is let through', async () => {
    const guest = await loginGuest(t.app, 5);
    const janus = await callApi(t.app, 'POST', 'auth/janus-token', undefined, guest.token);
    expect(janus.statusCode).toBe(403);
    expect(janus.json().error.code).toBe('no_live_call');
  });
});
