import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  companyDetailsSchema,
  DEFAULT_AVERAGE_WAIT_MS,
  envelope,
  formatCallId,
} from '@frontdesk/protocol';
import { SEEDED_COMPANY, seedDemo } from '../src/db/seed.ts';
import { buildTestApp, loginGuest, type TestApp } from './helper.ts';

describe('GET /api/company/:id', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(
      {},
      { seed: (db, config) => seedDemo(db, { fingerprintKey: config.secrets.guestFingerprint }) },
    );
  });
  afterAll(() => t.close());

  const details = async (id: number | string) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/company/${id}` });
    return {
      response,
      company: envelope(companyDetailsSchema).safeParse(response.json()).data?.data,
    };
  };

  it('answers the demo company with every field of spec §3, its categories, timetable and forms', async () => {
    const { response, company } = await details(SEEDED_COMPANY.demo);
    expect(response.statusCode).toBe(200);
    expect(company).toMatchObject({
      id: 5,
      name: 'Frontdesk Demo',
      activated: true,
      callMethod: 'mediaServer',
      callType: 'userSelect',
      recordCalls: true,
      pageDirection: 'ltr',
      streamWatermark: 'hidden',
      ratingStyle: 'stars',
      conferenceName: 'frontdesk-demo',
      host: 'conference.frontdesk.localhost',
      welcomeFormTitle: 'Before we start',
    });
    expect(company?.categories.map((c) => [c.name, c.roomName])).toEqual([
      ['Sales', 'frontdesk-demo-sales'],
      ['Support', 'frontdesk-demo-support'],
      ['Billing', 'frontdesk-demo-billing'],
    ]);
    expect(company?.schedule?.timeZone).toBe('Europe/London');
    expect(company?.schedule?.hours).toHaveLength(5);
    expect(typeof company?.schedule?.openNow).toBe('boolean');
    expect(company?.welcomeForm?.fields.map((f) => f.type)).toEqual([
      'text',
      'email',
      'select',
      'textarea',
    ]);
    expect(company?.ratingForm?.id).toBe(2);
    // Every settings field is present, none left undefined.
    const body = response.json().data as Record<string, unknown>;
    for (const key of Object.keys(companyDetailsSchema.shape)) expect(body).toHaveProperty(key);
  });

  it('fills the defaults of spec §3 for a company that set almost nothing', async () => {
    const { company } = await details(SEEDED_COMPANY.inactive);
    expect(company).toMatchObject({
      activated: false,
      callMethod: 'mediaServer',
      callType: 'userSelect',
      recordCalls: true,
      pageDirection: 'ltr',
      streamWatermark: 'hidden',
      schedule: null,
      welcomeForm: null,
      ratingForm: null,
      welcomeFormTitle: null,
      logoImageUrl: null,
    });
  });

  it('answers the Arabic company right to left', async () => {
    const { company } = await details(SEEDED_COMPANY.arabic);
    expect(company).toMatchObject({ language: 'ar', pageDirection: 'rtl', ratingStyle: 'emojies' });
  });

  it('answers an always-closed timetable as closed now', async () => {
    const { company } = await details(SEEDED_COMPANY.alwaysClosed);
    expect(company?.schedule).toEqual({
      timeZone: 'UTC',
      hours: [],
      exceptions: [],
      openNow: false,
    });
  });

  it("never carries a secret, such as the chat rooms' password", async () => {
    const { response } = await details(SEEDED_COMPANY.demo);
    expect(response.body).not.toMatch(/password|secret|quota|pin/i);
    const { room_password } = await t.app.db
      .selectFrom('companies')
      .select('room_password')
      .where('id', '=', SEEDED_COMPANY.demo)
      .executeTakeFirstOrThrow();
    expect(response.body).not.toContain(room_password);
  });

  it("estimates each category's wait from its last 20 answered calls, 60 s before any", async () => {
    const { username } = await loginGuest(t.app, SEEDED_COMPANY.demo);
    const guest = await t.app.db
      .selectFrom('guests')
      .select('id')
      .where('username', '=', username)
      .executeTakeFirstOrThrow();
    // Support's 21 answered calls, an hour apart: the oldest waited 10 minutes and falls out of
    // the last 20, which waited 20 s and 40 s in turn.
    const dayAgo = Date.now() - 86_400_000;
    for (let i = 0; i < 21; i += 1) {
      const callId = formatCallId(username, `w${i}`);
      const created = new Date(dayAgo + i * 3_600_000);
      const waitedMs = i === 0 ? 600_000 : i % 2 === 0 ? 20_000 : 40_000;
      await sql`insert into call_reports
        (company_id, guest_id, call_id, origin_call_id, category_id, source, status, created_at, answered_at)
        values (5, ${guest.id}, ${callId}, ${callId}, 2, 'site', 'ok', ${created}, ${new Date(created.getTime() + waitedMs)})`.execute(
        t.app.db,
      );
    }
    // Rows written behind the API's back show once its kept details expire; forgetting them
    // stands for that wait.
    t.app.companyDetails.forget(SEEDED_COMPANY.demo);
    const { company } = await details(SEEDED_COMPANY.demo);
    expect(company?.categories.map((c) => [c.id, c.averageWaitMs])).toEqual([
      [1, DEFAULT_AVERAGE_WAIT_MS],
      [2, 30_000],
      [3, DEFAULT_AVERAGE_WAIT_MS],
    ]);
  });

  it('answers an unknown company with 404 naming it', async () => {
    const { response } = await details(999);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: { code: 'company_not_found', message: 'There is no company 999.' },
    });
  });

  it.each(['abc', '0', '-1', '1.5', '99999999999'])(
    'refuses the id %s with 400 naming it',
    async (id) => {
      const { response } = await details(id);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toHaveProperty('id');
    },
  );
});

describe('GET /api/company/:id between loads', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ COMPANY_DETAILS_CACHE_MS: '400' });
  });
  afterAll(() => t.close());

  const name = async () =>
    envelope(companyDetailsSchema).parse(
      (await t.app.inject({ method: 'GET', url: `/api/company/${SEEDED_COMPANY.demo}` })).json(),
    ).data.name;
  const rename = (to: string) =>
    t.app.db
      .updateTable('companies')
      .set({ name: to })
      .where('id', '=', SEEDED_COMPANY.demo)
      .execute();

  it('keeps the details it loaded for COMPANY_DETAILS_CACHE_MS, then loads them again', async () => {
    expect(await name()).toBe('Frontdesk Demo');
    await rename('Frontdesk Renamed');
    expect(await name()).toBe('Frontdesk Demo');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await name()).toBe('Frontdesk Renamed');
  });

  it('loads once for visitors who arrive together', async () => {
    await rename('Frontdesk Together');
    t.app.companyDetails.forget(SEEDED_COMPANY.demo);
    const names = await Promise.all(Array.from({ length: 20 }, () => name()));
    expect(new Set(names)).toEqual(new Set(['Frontdesk Together']));
  });
});
