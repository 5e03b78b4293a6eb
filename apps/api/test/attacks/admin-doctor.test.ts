import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema, DEFAULT_COMPANY_ID } from '@frontdesk/protocol';
import { bearer, buildTestApp, loginGuest, loginStaff, type TestApp } from '../helper.ts';

/**
 * Attack: an agent, a guest or a stranger asks for the self-test, to learn the installation's
 * paths, addresses and weaknesses, and to take the relay credentials it hands out (anyone
 * holding them can relay traffic through the installation's TURN server). Only an admin gets it.
 */
describe('attack: reading the self-test without being an admin', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      TURN_URLS: 'turn:turn.test:3478?transport=udp',
      TURN_SECRET: randomBytes(24).toString('base64url'),
    });
  });
  afterAll(() => t.close());

  const ask = (headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: '/api/admin/doctor', headers });

  /** A refusal tells nothing of the installation and carries no credential. */
  function expectRefused(response: Awaited<ReturnType<typeof ask>>, status: number, code: string) {
    expect(response.statusCode).toBe(status);
    expect(apiErrorSchema.parse(response.json()).error.code).toBe(code);
    expect(response.body).not.toMatch(/turn\.test|credential|doctor-/);
  }

  it('refuses a stranger without a token with 401', async () => {
    expectRefused(await ask(), 401, 'unauthenticated');
  });

  it('refuses a forged or foreign token with 401', async () => {
    expectRefused(await ask(bearer(`${'x'.repeat(20)}.${'y'.repeat(20)}.z`)), 401, 'invalid_token');
  });

  it('refuses a signed-in guest with 403', async () => {
    const guest = await loginGuest(t.app, DEFAULT_COMPANY_ID);
    expectRefused(await ask(bearer(guest.token)), 403, 'staff_only');
  });

  it('refuses an agent with 403', async () => {
    const agent = await loginStaff(t.app, 'ada@frontdesk.demo');
    expectRefused(await ask(bearer(agent)), 403, 'admins_only');
  });

  it('answers the admin', async () => {
    const admin = await loginStaff(t.app, 'admin@frontdesk.demo');
    expect((await ask(bearer(admin))).statusCode).toBe(200);
  });
});
