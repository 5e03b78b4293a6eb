import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, REFRESH_COOKIE, refreshedSchema, staffLoginSchema } from '@frontdesk/protocol';
import { DEMO_LOGINS } from '../../src/db/seed.ts';
import {
  buildTestApp,
  callApi,
  loginGuest,
  refreshCookieOf,
  refreshSession,
  type TestApp,
} from '../helper.ts';

/**
 * Attack: a stolen or left-behind staff session keeps working after sign-out, deactivation or a
 * role change; a refresh token is used twice, read by the page's scripts or spent from another
 * site; a guest without a call reaches the media server. Through the public REST interface only.
 */
describe('attack: sessions that outlive what ended them', () => {
  let t: TestApp;
  let nextAddress = 0;

  /** A sign-in's answer, and the refresh token it set as the cookie. */
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
    const refreshToken = refreshCookieOf(response);
    // SECURITY: the token is in no body a script of the page could read.
    expect(response.body).not.toContain(refreshToken);
    return { ...envelope(staffLoginSchema).parse(response.json()).data, refreshToken };
  };
  /** A staff-only route: the colleagues list. */
  const staffList = (token: string) => callApi(t.app, 'GET', 'staff', undefined, token);
  const refresh = (refreshToken?: string) => refreshSession(t.app, refreshToken);
  /** A refresh's answer and the next token, from its cookie. */
  const refreshed = async (refreshToken: string) => {
    const response = await refresh(refreshToken);
    expect(response.statusCode, response.body).toBe(200);
    const next = refreshCookieOf(response);
    expect(response.body).not.toContain(next);
    expect(response.body).not.toContain(refreshToken);
    return { ...envelope(refreshedSchema).parse(response.json()).data, refreshToken: next };
  };

  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('gives staff a short access token and a refresh token that works once', async () => {
    const login = await signIn('ada@frontdesk.demo');
    const minutes = (Date.parse(login.accessTokenExpiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(9.9);
    expect(minutes).toBeLessThanOrEqual(10);
    const next = await refreshed(login.refreshToken);
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
    const renewed = await refreshed(login.refreshToken);
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
    // The page's cookie is cleared with the same attributes, so the browser drops it.
    const cleared = out.cookies.find((c) => c.name === REFRESH_COOKIE.name);
    expect(cleared).toMatchObject({ value: '', path: REFRESH_COOKIE.path, httpOnly: true });
    expect(cleared?.expires?.getTime()).toBeLessThanOrEqual(Date.now());
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

  it('sets the refresh token as an HttpOnly, SameSite=Strict cookie for the refresh route alone', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: 'ada@frontdesk.demo', password: DEMO_LOGINS[0]?.password },
      remoteAddress: '10.77.2.1',
    });
    expect(response.statusCode).toBe(200);
    const cookie = response.cookies.find((c) => c.name === REFRESH_COOKIE.name);
    expect(cookie).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: '/api/auth/refresh',
    });
    // Plain HTTP here (a test's own server): no Secure, or no browser would keep it.
    expect(cookie?.secure).toBeUndefined();
    // It ends with the session, 12 hours after sign-in.
    const hours = ((cookie?.expires?.getTime() ?? 0) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(11.9);
    expect(hours).toBeLessThanOrEqual(12);
  });

  it('marks the cookie Secure when the request came by HTTPS through the trusted proxy', async () => {
    // The stack runs the API behind Caddy with TRUST_PROXY=127.0.0.1 (docs/operations.md).
    const behindCaddy = await buildTestApp({ TRUST_PROXY: '127.0.0.1' });
    try {
      const response = await behindCaddy.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        body: { email: 'ada@frontdesk.demo', password: DEMO_LOGINS[0]?.password },
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '10.77.2.2' },
      });
      expect(response.statusCode).toBe(200);
      const cookie = response.cookies.find((c) => c.name === REFRESH_COOKIE.name);
      expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Strict' });
    } finally {
      await behindCaddy.close();
    }
  });

  it('answers a refresh with all a sign-in gives, so a reload or a new tab resumes', async () => {
    const login = await signIn('ada@frontdesk.demo');
    const resumed = await refreshed(login.refreshToken);
    expect(resumed.user).toEqual(login.user);
    expect(resumed.rooms).toEqual(login.rooms);
    expect(resumed.xmpp.jid).toBe(login.xmpp.jid);
    expect(resumed.janusToken).toBeTruthy();
  });

  it('refuses a refresh without the cookie, with a malformed or unknown one (401), and clears it', async () => {
    const none = await refresh();
    expect(none.statusCode).toBe(401);
    expect(none.json().error.code).toBe('session_ended');
    for (const token of ['short', 'A'.repeat(43)]) {
      const response = await refresh(token);
      expect(response.statusCode).toBe(401);
      expect(response.cookies.find((c) => c.name === REFRESH_COOKIE.name)?.value).toBe('');
    }
    // A refresh token in the body, as before, is no longer read: the body must be empty.
    const login = await signIn('di@frontdesk.demo');
    const inBody = await callApi(t.app, 'POST', 'auth/refresh', {
      refreshToken: login.refreshToken,
    });
    expect(inBody.statusCode).toBe(400);
    // And that token still works from its cookie: the refused request spent nothing.
    await refreshed(login.refreshToken);
  });

  it('lets no other site resume a sign-in', async () => {
    const login = await signIn('bo@frontdesk.demo');
    // 1. The browser sends a SameSite=Strict cookie with no request another site starts (a form,
    //    a fetch, a frame, a link followed from there): asserted on the cookie above.
    // 2. A fetch from another origin with `application/json` needs a CORS preflight, and the API
    //    answers none for this route: the browser never sends the POST, nor lets the page read.
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/auth/refresh',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
    // 3. A browser that sent the cookie anyway names the other origin: refused, token unspent.
    const crossSite = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      body: {},
      headers: { origin: 'https://evil.example' },
      cookies: { [REFRESH_COOKIE.name]: login.refreshToken },
    });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.headers['access-control-allow-origin']).toBeUndefined();
    expect(crossSite.body).not.toContain('access_token');
    // 4. A plain form can only post url-encoded or multipart bodies, which this route refuses.
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      payload: 'a=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      cookies: { [REFRESH_COOKIE.name]: login.refreshToken },
    });
    expect(form.statusCode).toBeGreaterThanOrEqual(400);
    expect(form.body).not.toContain('access_token');
    // The console's own page (same origin) resumes with the same token.
    const sameOrigin = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      body: {},
      headers: { origin: 'http://localhost:80', host: 'localhost:80' },
      cookies: { [REFRESH_COOKIE.name]: login.refreshToken },
    });
    expect(sameOrigin.statusCode, sameOrigin.body).toBe(200);
  });

  it('gives a guest no Janus token and no XMPP password until a call of its own is let through', async () => {
    const guest = await loginGuest(t.app, 5);
    const janus = await callApi(t.app, 'POST', 'auth/janus-token', undefined, guest.token);
    expect(janus.statusCode).toBe(403);
    expect(janus.json().error.code).toBe('no_live_call');
  });
});
