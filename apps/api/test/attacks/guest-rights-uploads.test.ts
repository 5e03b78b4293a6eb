import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_COMPANY } from '../../src/db/seed.ts';
import { COMPANY } from '../guest-data-fixture.ts';
import {
  answeredCall,
  bearer,
  buildTestApp,
  loginStaff,
  multipart,
  staffIdOf,
  type TestApp,
} from '../helper.ts';
import { holdRowLock } from '../row-lock.ts';

const PDF = new TextEncoder().encode('%PDF-1.7\n% a price list\n%%EOF\n');

/**
 * Attack: a file an agent sends names the call it was sent in, so it goes with that call's guest
 * (decision 0032, migration 0033). Naming a call one did not take, or one that has ended, would
 * tie one's file to another guest's data, or to a guest one no longer serves: refused, and
 * nothing is kept.
 */
describe('attack: an agent’s file tied to a call that is not the agent’s live call', () => {
  let t: TestApp;
  let categoryId: number;
  let ada: string;

  beforeAll(async () => {
    t = await buildTestApp();
    ada = await loginStaff(t.app, 'ada@frontdesk.demo');
    categoryId = (
      await t.app.db
        .selectFrom('categories')
        .select('id')
        .where('company_id', '=', COMPANY)
        .orderBy('position')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => t.close());

  const send = (token: string, callId: string, company: number = COMPANY) => {
    const { payload, contentType } = multipart([
      { name: 'companyId', value: String(company) },
      { name: 'callId', value: callId },
      { name: 'document', filename: 'prices.pdf', type: 'application/pdf', content: PDF },
    ]);
    return t.app.inject({
      method: 'POST',
      url: '/api/upload/document',
      payload,
      headers: { 'content-type': contentType, ...bearer(token) },
    });
  };
  const filesOfCall = async (callId: string) =>
    t.app.db
      .selectFrom('uploads')
      .innerJoin('call_reports', 'call_reports.id', 'uploads.call_report_id')
      .select(['uploads.guest_id', 'uploads.staff_id'])
      .where('call_reports.call_id', '=', callId)
      .execute();

  /** The refusal names `callId`, and no file of it is kept in the call. */
  async function expectRefused(
    response: Awaited<ReturnType<typeof send>>,
    status: number,
    code: string,
    callId: string,
  ) {
    expect(response.statusCode).toBe(status);
    expect(response.json().error).toMatchObject({ code, fields: { callId: expect.any(String) } });
    expect(await filesOfCall(callId)).toEqual([]);
  }

  it('links the file of the agent who took the live call to that call', async () => {
    const call = await answeredCall(t.app, COMPANY, categoryId);
    const response = await send(ada, call.callId);
    expect(response.statusCode).toBe(201);
    expect(await filesOfCall(call.callId)).toEqual([
      { guest_id: null, staff_id: await staffIdOf(t.app, 'ada@frontdesk.demo') },
    ]);
  });

  it.each([
    ['a colleague who did not take it', 'admin@frontdesk.demo', COMPANY],
    ['an agent of another company', 'cy@frontdesk.demo', SEEDED_COMPANY.aroundTheClock],
  ])('refuses %s (403, naming callId)', async (_who, email, company) => {
    const call = await answeredCall(t.app, COMPANY, categoryId);
    const response = await send(await loginStaff(t.app, email), call.callId, company);
    await expectRefused(response, 403, 'not_your_call', call.callId);
  });

  it('refuses the agent once the call has ended (409, naming callId)', async () => {
    const call = await answeredCall(t.app, COMPANY, categoryId);
    await t.app.db
      .updateTable('call_reports')
      .set({ ended_at: new Date(), end_reason: 'completed' })
      .where('call_id', '=', call.callId)
      .execute();
    await expectRefused(await send(ada, call.callId), 409, 'call_not_live', call.callId);
  });

  /**
   * The race: the call ends after its sender was checked and before the file is recorded. The
   * test holds the call's row while the upload comes, ends the call as it lets go, and the upload
   * (waiting for the row) must see the end.
   */
  it.each([
    ['the agent who took it', 409, 'call_not_live'],
    ['its guest', 403, 'no_live_call'],
  ])('refuses %s a file while the call ends (%i)', async (who, status, code) => {
    const call = await answeredCall(t.app, COMPANY, categoryId);
    const lock = await holdRowLock(t.app.db, (trx) =>
      trx
        .selectFrom('call_reports')
        .select('id')
        .where('call_id', '=', call.callId)
        .forUpdate()
        .execute(),
    );
    const sent = send(who === 'its guest' ? call.token : ada, call.callId);
    await lock.waitedOn();
    await lock.release((trx) =>
      trx
        .updateTable('call_reports')
        .set({ ended_at: new Date(), end_reason: 'completed' })
        .where('call_id', '=', call.callId)
        .execute(),
    );
    const response = await sent;
    expect(response.statusCode).toBe(status);
    expect(response.json().error.code).toBe(code);
    expect(await filesOfCall(call.callId)).toEqual([]);
  });

  it('refuses a callId that is no call id (400, naming callId)', async () => {
    const response = await send(ada, 'not a call');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toHaveProperty('callId');
  });

  it('keeps a guest’s file in its own live call whatever callId it names', async () => {
    const own = await answeredCall(t.app, COMPANY, categoryId);
    const other = await answeredCall(t.app, COMPANY, categoryId);
    const response = await send(own.token, other.callId);
    expect(response.statusCode).toBe(201);
    expect(await filesOfCall(other.callId)).toEqual([]);
    expect(await filesOfCall(own.callId)).toHaveLength(1);
  });
});
