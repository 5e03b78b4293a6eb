import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { bearer, callApi, loginGuest, newCallId } from './helper.ts';

/**
 * A new guest of `company` who answered its welcome form (form 1, the demo's) with `answers`,
 * then reported a call in category 1 from a browser naming itself `userAgent`, as the guest page
 * does: its name, token and call id.
 */
export async function guestWhoCalled(
  app: FastifyInstance,
  company: number,
  answers: Record<string, string | boolean>,
  userAgent?: string,
) {
  const guest = await loginGuest(app, company);
  const submitted = await callApi(
    app,
    'POST',
    'form-submission',
    { company, guestUsername: guest.username, serviceType: 'Talk', form: 1, answers },
    guest.token,
  );
  expect(submitted.statusCode, submitted.body).toBe(201);
  const callId = newCallId(guest);
  const added = await app.inject({
    method: 'POST',
    url: '/api/call-report/add',
    body: { call_id: callId, company, source: 'site', category_id: 1 },
    headers: { ...bearer(guest.token), ...(userAgent ? { 'user-agent': userAgent } : {}) },
  });
  expect(added.statusCode, added.body).toBe(201);
  return { ...guest, callId };
}
