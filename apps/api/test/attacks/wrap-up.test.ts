import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_COMPANY } from '../../src/db/seed.ts';
import {
  answeredCall,
  buildTestApp,
  callApi,
  guestWithCall,
  loginStaff,
  type TestApp,
} from '../helper.ts';

const COMPANY = SEEDED_COMPANY.demo;
const CODES = [
  { code: 'solved', label: 'Solved' },
  { code: 'sale', label: 'Sale made' },
];

/**
 * Attack: a company's outcome codes changed by anyone but its admin — its own agent, another
 * company's agent or admin, a guest, nobody signed in — and a call wrapped up by anyone but the
 * agent who took it. Through the real API and PostgreSQL; each refusal says why and nothing is
 * stored. Also the way it should work: the admin sets codes, the agent wraps up with one.
 */
describe('attack: outcome codes and wrap-ups by the wrong people', () => {
  let t: TestApp;
  let ada: string;
  let bo: string;
  let ann: string;
  let cy: string;
  let zoe: string;

  beforeAll(async () => {
    t = await buildTestApp();
    [ada, bo, ann, cy, zoe] = (await Promise.all(
      [
        'ada@frontdesk.demo',
        'bo@frontdesk.demo',
        'admin@frontdesk.demo',
        'cy@frontdesk.demo',
        'zoe@frontdesk.demo',
      ].map((email) => loginStaff(t.app, email)),
    )) as [string, string, string, string, string];
    const set = await callApi(
      t.app,
      'PUT',
      `company/${COMPANY}/outcome-codes`,
      { codes: CODES },
      ann,
    );
    expect(set.statusCode, set.body).toBe(200);
  });
  afterAll(() => t?.close());

  const refusal = (response: { statusCode: number; json: () => unknown }) => {
    const { error } = response.json() as { error: { code: string; fields?: object } };
    return { status: response.statusCode, code: error.code, fields: error.fields };
  };
  const storedCodes = () =>
    t.app.db
      .selectFrom('call_outcome_codes')
      .select(['code', 'label'])
      .where('company_id', '=', COMPANY)
      .orderBy('position')
      .execute();
  const wrapUpOf = (callId: string) =>
    t.app.db
      .selectFrom('call_reports')
      .select(['outcome_code', 'follow_up', 'follow_up_note', 'wrapped_up_at'])
      .where('call_id', '=', callId)
      .executeTakeFirstOrThrow();

  it('lets the company’s staff read the codes in order, and no one else', async () => {
    const read = await callApi(t.app, 'GET', `company/${COMPANY}/outcome-codes`, undefined, ada);
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toEqual(CODES);
    expect(
      refusal(await callApi(t.app, 'GET', `company/${COMPANY}/outcome-codes`, undefined)),
    ).toMatchObject({ status: 401 });
    for (const token of [cy, zoe]) {
      const response = await callApi(
        t.app,
        'GET',
        `company/${COMPANY}/outcome-codes`,
        undefined,
        token,
      );
      expect(refusal(response)).toMatchObject({ status: 403, code: 'other_company' });
      expect(response.body).not.toContain('Sale made');
    }
  });

  it('refuses to change the codes to an agent, another company’s staff and strangers', async () => {
    const evil = { codes: [{ code: 'evil', label: 'Pay here' }] };
    const put = (token?: string) =>
      callApi(t.app, 'PUT', `company/${COMPANY}/outcome-codes`, evil, token);
    expect(refusal(await put())).toMatchObject({ status: 401, code: 'unauthenticated' });
    expect(refusal(await put(ada))).toMatchObject({ status: 403, code: 'admins_only' });
    expect(refusal(await put(cy))).toMatchObject({ status: 403, code: 'admins_only' });
    expect(refusal(await put(zoe))).toMatchObject({ status: 403, code: 'other_company' });
    expect(await storedCodes()).toEqual(CODES);
  });

  it('refuses a list that repeats a code or has a bad one, naming the field (400)', async () => {
    for (const codes of [
      [CODES[0], CODES[0]],
      [{ code: 'Not A Code', label: 'x' }],
      [{ code: 'ok', label: '' }],
    ]) {
      const refused = refusal(
        await callApi(t.app, 'PUT', `company/${COMPANY}/outcome-codes`, { codes }, ann),
      );
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.fields)).toContain('codes');
    }
    expect(await storedCodes()).toEqual(CODES);
  });

  it('lets the agent who took the call wrap it up with one of the codes', async () => {
    const { callId } = await answeredCall(t.app, COMPANY, 1);
    const body = { outcomeCode: 'sale', followUp: true, followUpNote: 'Send the invoice' };
    const response = await callApi(t.app, 'PUT', `calls/${callId}/wrap-up`, body, ada);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ outcomeCode: 'sale', followUp: true });
    expect(await wrapUpOf(callId)).toMatchObject({
      outcome_code: 'sale',
      follow_up: true,
      follow_up_note: 'Send the invoice',
    });
    // The reports' call page shows it, the outcome by its label.
    const report = await callApi(t.app, 'GET', `reports/calls/${callId}`, undefined, ann);
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json().data.legs[0].wrapUp).toEqual({
      outcomeCode: 'sale',
      outcomeLabel: 'Sale made',
      followUp: true,
      followUpNote: 'Send the invoice',
    });
  });

  it('refuses a wrap-up by anyone but the call’s agent, and stores nothing', async () => {
    const { callId, token: guest } = await answeredCall(t.app, COMPANY, 1);
    const body = { outcomeCode: 'solved', followUp: false, followUpNote: '' };
    const put = (token?: string) => callApi(t.app, 'PUT', `calls/${callId}/wrap-up`, body, token);
    expect(refusal(await put())).toMatchObject({ status: 401, code: 'unauthenticated' });
    expect(refusal(await put(guest))).toMatchObject({ status: 403, code: 'staff_only' });
    // A colleague, the company's admin, another company's agent and admin.
    for (const token of [bo, ann, cy, zoe]) {
      expect((await put(token)).statusCode).toBe(403);
    }
    // A call nobody took is nobody's to wrap up.
    const waiting = await guestWithCall(t.app, COMPANY, 1);
    expect(
      refusal(await callApi(t.app, 'PUT', `calls/${waiting.callId}/wrap-up`, body, ada)),
    ).toMatchObject({
      status: 403,
      code: 'not_your_call',
    });
    expect((await wrapUpOf(callId)).wrapped_up_at).toBeNull();
    expect((await wrapUpOf(waiting.callId)).wrapped_up_at).toBeNull();
  });

  it('refuses an outcome the company does not keep, naming outcomeCode (400)', async () => {
    const { callId } = await answeredCall(t.app, COMPANY, 1);
    for (const body of [
      { outcomeCode: 'refund', followUp: false, followUpNote: '' },
      { outcomeCode: null, followUp: false, followUpNote: '' },
      { outcomeCode: 'NOPE!', followUp: false, followUpNote: '' },
    ]) {
      const refused = refusal(await callApi(t.app, 'PUT', `calls/${callId}/wrap-up`, body, ada));
      expect(refused.status).toBe(400);
      expect(refused.fields).toHaveProperty('outcomeCode');
    }
    expect((await wrapUpOf(callId)).wrapped_up_at).toBeNull();
  });
});
