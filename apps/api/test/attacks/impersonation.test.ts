import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  envelope,
  guestLoginSchema,
  guestRegistrationSchema,
  parseCallId,
} from '@frontdesk/protocol';
import { SEEDED_COMPANY } from '../../src/db/seed.ts';
import {
  buildTestApp,
  callApi,
  newBrowserUsername,
  newCallId,
  passCompanyChecks,
  type TestApp,
} from '../helper.ts';

/**
 * Attack: a visitor becomes another guest from what it can observe of that guest (decision
 * 0006). Everything another party may see of a guest — its username, its jabber username, its
 * call ids, the browser name its fingerprint makes — is tried as a way in, through the public
 * REST interface only.
 */
describe('attack: impersonating another guest', () => {
  let t: TestApp;
  const company = SEEDED_COMPANY.demo;
  let victim: { browserUsername: string; username: string; jabberusername: string; token: string };
  let victimCallId: string;
  let attacker: { username: string; token: string };

  const register = async (browserUsername: string) => {
    const response = await callApi(t.app, 'POST', 'guest-auth/register', {
      username: browserUsername,
      companyId: company,
    });
    expect(response.statusCode).toBe(201);
    return envelope(guestRegistrationSchema).parse(response.json()).data;
  };
  const login = (body: object) => callApi(t.app, 'POST', 'guest-auth/login', body);
  const signIn = async (browserUsername: string) => {
    const registration = await register(browserUsername);
    const response = await login({ credential: registration.credential, companyId: company });
    expect(response.statusCode).toBe(200);
    return {
      ...registration,
      token: envelope(guestLoginSchema).parse(response.json()).data.access_token,
    };
  };

  beforeAll(async () => {
    t = await buildTestApp();
    const browserUsername = newBrowserUsername();
    victim = { browserUsername, ...(await signIn(browserUsername)) };
    await passCompanyChecks(t.app, company, victim);
    victimCallId = newCallId(victim);
    const added = await callApi(
      t.app,
      'POST',
      'call-report/add',
      { call_id: victimCallId, company, source: 'site', category_id: 1 },
      victim.token,
    );
    expect(added.statusCode).toBe(201);
    attacker = await signIn(newBrowserUsername());
  });
  afterAll(() => t.close());

  it('the call id names only the public username, never the secret or the browser', () => {
    expect(parseCallId(victimCallId)?.username).toBe(victim.username);
    expect(victimCallId).not.toContain(victim.browserUsername.split('_')[0]);
  });

  it('cannot log in with anything it can observe of the victim', async () => {
    const observed = [
      victim.username,
      victim.jabberusername,
      victimCallId,
      victim.browserUsername,
      `${victim.jabberusername}@frontdesk.localhost`,
    ];
    for (const value of observed) {
      // Not shaped like a credential: refused before any lookup, naming the field.
      const asCredential = await login({ credential: value, companyId: company });
      expect(asCredential.statusCode).toBe(400);
      expect(asCredential.json().error.fields).toHaveProperty('credential');
      // The old way in (spec §3: "username used as the credential") is gone.
      const asUsername = await login({ username: value, companyId: company });
      expect(asUsername.statusCode).toBe(400);
    }
    // Well-shaped guesses are simply unknown.
    const guess = await login({ credential: 'x'.repeat(43), companyId: company });
    expect(guess.statusCode).toBe(401);
  });

  it('registering with the same browser name (same fingerprint) makes a different guest', async () => {
    const twin = await signIn(victim.browserUsername);
    expect(twin.username).not.toBe(victim.username);
    expect(twin.jabberusername).not.toBe(victim.jabberusername);
    // The twin cannot touch the victim's call.
    const room = await callApi(t.app, 'POST', `calls/${victimCallId}/room`, {}, twin.token);
    expect(room.statusCode).toBe(403);
  });

  it("cannot fetch the victim's Janus room, state or details, or end, stamp or rate its call", async () => {
    const attempts = [
      callApi(t.app, 'POST', `calls/${victimCallId}/room`, {}, attacker.token),
      callApi(t.app, 'GET', `calls/${victimCallId}`, undefined, attacker.token),
      callApi(
        t.app,
        'GET',
        `guest-auth/guestDetails?username=${victim.username}`,
        undefined,
        attacker.token,
      ),
      callApi(t.app, 'POST', `calls/${victimCallId}/end`, { reason: 'completed' }, attacker.token),
      callApi(
        t.app,
        'PUT',
        'call-report/update-timestamp',
        { call_id: victimCallId, guest_exit_timestamp: true },
        attacker.token,
      ),
      callApi(
        t.app,
        'PUT',
        'call-report/update',
        { call_id: victimCallId, rating: 1 },
        attacker.token,
      ),
      callApi(
        t.app,
        'POST',
        'form-submission/get-submission',
        { companyId: company, guestUsername: victim.username, serviceType: 'Talk' },
        attacker.token,
      ),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.statusCode, response.body).toBe(403);
    }
    // The victim itself still reads its own call: the refusals are about who asks.
    const own = await callApi(t.app, 'GET', `calls/${victimCallId}`, undefined, victim.token);
    expect(own.statusCode).toBe(200);
    expect(own.json().data.status).toBe('waiting');
  });
});
