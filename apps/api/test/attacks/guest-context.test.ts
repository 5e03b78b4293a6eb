import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_COMPANY } from '../../src/db/seed.ts';
import { bearer, buildTestApp, loginGuest, loginStaff, type TestApp } from '../helper.ts';
import { guestWhoCalled } from '../welcome-call.ts';

const OURS = SEEDED_COMPANY.demo;
const SECRET_NAME = 'Zelda Secretname';

/**
 * Attack: someone other than the staff of a call's company reads the guest's panel — its name,
 * welcome answers, earlier calls, browser — by naming the call: anonymous, a guest (another one
 * of the same company, or the call's own guest), or an agent or admin of another company with a
 * valid token. None of them gets a word of it, nor learns that the call exists.
 */
describe('attack: a guest’s context by anyone but its company’s staff', () => {
  let t: TestApp;
  let callId: string;
  let ownGuest: string;
  let otherGuest: string;
  let theirAgent: string;
  let theirAdmin: string;
  let ourAgent: string;

  beforeAll(async () => {
    t = await buildTestApp();
    const guest = await guestWhoCalled(t.app, OURS, {
      name: SECRET_NAME,
      email: 'zelda@example.org',
      topic: 'account',
    });
    ownGuest = guest.token;
    callId = guest.callId;
    [otherGuest, theirAgent, theirAdmin, ourAgent] = await Promise.all([
      loginGuest(t.app, OURS).then((guest) => guest.token),
      loginStaff(t.app, 'cy@frontdesk.demo'),
      loginStaff(t.app, 'zoe@frontdesk.demo'),
      loginStaff(t.app, 'ada@frontdesk.demo'),
    ]);
  });
  afterAll(() => t.close());

  const read = (token?: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/calls/${callId}/guest-context`,
      ...(token ? { headers: bearer(token) } : {}),
    });

  it('shows the call’s own company staff the guest (the control)', async () => {
    const response = await read(ourAgent);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(SECRET_NAME);
  });

  it('answers 401 without a token', async () => {
    const response = await read();
    expect(response.statusCode).toBe(401);
    expect(response.body).not.toContain(SECRET_NAME);
  });

  it('answers 403 to a guest, the call’s own included', async () => {
    for (const token of [ownGuest, otherGuest]) {
      const response = await read(token);
      expect(response.statusCode).toBe(403);
      expect(response.body).not.toContain(SECRET_NAME);
      expect(response.body).not.toContain('zelda@example.org');
    }
  });

  it('answers another company’s agent and admin 404, as for a call that never was', async () => {
    for (const token of [theirAgent, theirAdmin]) {
      const response = await read(token);
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('call_not_found');
      expect(response.body).not.toContain(SECRET_NAME);
      expect(response.body).not.toContain('zelda@example.org');
    }
  });
});
