import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDays,
  companyDetailsSchema,
  companyScheduleSchema,
  envelope,
  localDate,
  type TimetableData,
} from '@frontdesk/protocol';
import { SEEDED_COMPANY } from '../src/db/seed.ts';
import { bearer, buildTestApp, loginGuest, loginStaff, type TestApp } from './helper.ts';

const company = SEEDED_COMPANY.demo;
const url = `/api/company/${company}/schedule`;
let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await loginStaff(t.app, 'admin@frontdesk.demo');
});
afterAll(() => t.close());

type Method = 'GET' | 'PUT' | 'DELETE';
const send = (method: Method, token?: string, body?: object, ifMatch?: string) =>
  t.app.inject({
    method,
    url,
    ...(body ? { body } : {}),
    headers: { ...(token ? bearer(token) : {}), ...(ifMatch ? { 'if-match': ifMatch } : {}) },
  });

/** The timetable as the editor reads it, with its ETag. */
const read = async () => {
  const response = await send('GET', admin);
  expect(response.statusCode, response.body).toBe(200);
  return {
    ...envelope(companyScheduleSchema).parse(response.json()).data,
    etag: response.headers.etag,
  };
};

/** The company's details as its guests get them. */
const publicSchedule = async () => {
  const response = await t.app.inject({ method: 'GET', url: `/api/company/${company}` });
  return envelope(companyDetailsSchema).parse(response.json()).data.schedule;
};

/** London's date `days` from today. */
const londonDay = (days: number) => addDays(localDate(new Date(), 'Europe/London'), days);

/** A full timetable: weekday hours with a lunch break, a Friday night, and three dates. */
const timetable = (): TimetableData => ({
  timeZone: 'Europe/London',
  hours: [
    { weekday: 5, opens: '22:00', closes: '02:00' },
    { weekday: 1, opens: '13:00', closes: '17:00' },
    { weekday: 1, opens: '08:00', closes: '12:00' },
    { weekday: 6, opens: '10:00', closes: '16:00' },
  ],
  exceptions: [
    { date: londonDay(10), label: 'Christmas Eve', hours: [{ opens: '09:00', closes: '13:00' }] },
    { date: londonDay(-30), label: 'Past holiday', hours: [] },
    { date: londonDay(90), label: 'Far holiday', hours: [] },
    { date: londonDay(11), label: null, hours: [] },
  ],
});

describe('the timetable, edited by the company’s admin', () => {
  it('round-trips: PUT with the ETag, read back in order, shown to guests with upcoming dates only', async () => {
    const before = await read();
    expect(before.timetable).toBeNull();
    expect(before.etag).toBe(`"${before.version}"`);

    const saved = await send('PUT', admin, timetable(), before.etag);
    expect(saved.statusCode, saved.body).toBe(200);
    const answer = envelope(companyScheduleSchema).parse(saved.json()).data;
    expect(answer.version).toBe(before.version + 1);
    expect(saved.headers.etag).toBe(`"${answer.version}"`);

    const expected: TimetableData = {
      timeZone: 'Europe/London',
      hours: [
        { weekday: 1, opens: '08:00', closes: '12:00' },
        { weekday: 1, opens: '13:00', closes: '17:00' },
        { weekday: 5, opens: '22:00', closes: '02:00' },
        { weekday: 6, opens: '10:00', closes: '16:00' },
      ],
      exceptions: [
        { date: londonDay(-30), label: 'Past holiday', hours: [] },
        {
          date: londonDay(10),
          label: 'Christmas Eve',
          hours: [{ opens: '09:00', closes: '13:00' }],
        },
        { date: londonDay(11), label: null, hours: [] },
        { date: londonDay(90), label: 'Far holiday', hours: [] },
      ],
    };
    expect(answer.timetable).toEqual(expected);
    const again = await read();
    expect(again.timetable).toEqual(expected);
    expect(again.version).toBe(answer.version);

    const shown = await publicSchedule();
    expect(shown?.hours).toEqual(expected.hours);
    expect(shown?.exceptions.map((e) => e.label)).toEqual(['Christmas Eve', null]);
  });

  it('answers the server’s openNow from the dates: a holiday today is closed, a special day open', async () => {
    const { etag } = await read();
    const everyDay = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
      weekday,
      opens: '00:00',
      closes: '00:00',
    }));
    const today = londonDay(0);
    const holiday = { date: today, label: 'Holiday', hours: [] };
    const closedAllWeek = { timeZone: 'Europe/London', hours: everyDay, exceptions: [holiday] };
    expect((await send('PUT', admin, closedAllWeek, etag)).statusCode).toBe(200);
    expect((await publicSchedule())?.openNow).toBe(false);

    const special = {
      date: today,
      label: 'Open day',
      hours: [{ opens: '00:00', closes: '00:00' }],
    };
    const openToday = { timeZone: 'Europe/London', hours: [], exceptions: [special] };
    expect((await send('PUT', admin, openToday)).statusCode).toBe(200);
    expect((await publicSchedule())?.openNow).toBe(true);
  });

  it('refuses each bad value, naming its field, and stores nothing', async () => {
    const { version, timetable: kept } = await read();
    const overlapping = [
      ...timetable().hours,
      // Overlaps Monday's 08:00–12:00.
      { weekday: 1, opens: '11:00', closes: '14:00' },
    ];
    const cases: [string, object][] = [
      ['timeZone', { ...timetable(), timeZone: 'Mars/Olympus' }],
      ['timeZone', { ...timetable(), timeZone: '+01:00' }],
      [
        'hours.0.opens',
        { ...timetable(), hours: [{ weekday: 1, opens: '8:00', closes: '12:00' }] },
      ],
      [
        'hours.0.closes',
        { ...timetable(), hours: [{ weekday: 1, opens: '08:00', closes: '24:00' }] },
      ],
      [
        'hours.0.weekday',
        { ...timetable(), hours: [{ weekday: 8, opens: '08:00', closes: '12:00' }] },
      ],
      ['hours.4.opens', { ...timetable(), hours: overlapping }],
      [
        // Sunday night runs into Monday 03:00, over Monday's 02:00.
        'hours.1.opens',
        {
          ...timetable(),
          hours: [
            { weekday: 7, opens: '22:00', closes: '03:00' },
            { weekday: 1, opens: '02:00', closes: '05:00' },
          ],
        },
      ],
      [
        'exceptions.0.date',
        { ...timetable(), exceptions: [{ date: '2026-02-30', label: null, hours: [] }] },
      ],
      [
        'exceptions.0.date',
        { ...timetable(), exceptions: [{ date: '30/12/2026', label: null, hours: [] }] },
      ],
      [
        'exceptions.1.date',
        {
          ...timetable(),
          exceptions: [
            { date: '2026-12-25', label: null, hours: [] },
            { date: '2026-12-25', label: 'Again', hours: [] },
          ],
        },
      ],
      [
        'exceptions.0.hours.1.opens',
        {
          ...timetable(),
          exceptions: [
            {
              date: '2026-12-24',
              label: null,
              hours: [
                { opens: '09:00', closes: '13:00' },
                { opens: '12:00', closes: '14:00' },
              ],
            },
          ],
        },
      ],
      [
        'exceptions.0.label',
        { ...timetable(), exceptions: [{ date: '2026-12-24', label: 'x'.repeat(101), hours: [] }] },
      ],
      ['exceptions.0.hours', { ...timetable(), exceptions: [{ date: '2026-12-24', label: null }] }],
      ['openNow', { ...timetable(), openNow: true }],
    ];
    for (const [field, body] of cases) {
      const response = await send('PUT', admin, body);
      expect(response.statusCode, field).toBe(400);
      expect(Object.keys(response.json().error.fields), field).toEqual([field]);
    }
    const badIfMatch = await send('PUT', admin, timetable(), 'yesterday');
    expect(badIfMatch.json().error.fields).toEqual({ 'if-match': expect.any(String) });
    expect(await read()).toMatchObject({ version, timetable: kept });
  });

  it('refuses an edit made from a stale copy (412) and keeps the newer one', async () => {
    const { etag } = await read();
    const first = await send('PUT', admin, { ...timetable(), timeZone: 'America/New_York' }, etag);
    expect(first.statusCode).toBe(200);
    const stale = await send('PUT', admin, timetable(), etag);
    expect(stale.statusCode).toBe(412);
    expect(stale.json().error.code).toBe('stale_version');
    const removal = await send('DELETE', admin, undefined, etag);
    expect(removal.statusCode).toBe(412);
    expect((await read()).timetable?.timeZone).toBe('America/New_York');
  });

  it('keeps each change in the audit log with only the parts it changed', async () => {
    const { etag } = await read();
    const zoneOnly = { ...timetable(), timeZone: 'Asia/Tokyo' };
    expect((await send('PUT', admin, timetable(), etag)).statusCode).toBe(200);
    expect((await send('PUT', admin, zoneOnly)).statusCode).toBe(200);
    expect((await send('DELETE', admin)).statusCode).toBe(200);
    const entries = await t.app.db
      .selectFrom('audit_entries')
      .select(['actor', 'action', 'target', 'before', 'after'])
      .where('target', '=', `schedule of company ${company}`)
      .orderBy('id', 'desc')
      .limit(2)
      .execute();
    const [removal, zoneChange] = entries;
    expect(zoneChange).toEqual({
      actor: 'admin@frontdesk.demo',
      action: 'schedule.replace',
      target: `schedule of company ${company}`,
      before: { timeZone: 'Europe/London' },
      after: { timeZone: 'Asia/Tokyo' },
    });
    expect(removal).toMatchObject({ action: 'schedule.remove', after: null });
    expect(removal?.before).toMatchObject({ timeZone: 'Asia/Tokyo' });
  });

  it('removes the timetable: open at every hour, for guests at once', async () => {
    const { etag } = await read();
    expect((await send('PUT', admin, timetable(), etag)).statusCode).toBe(200);
    expect(await publicSchedule()).not.toBeNull();
    const removed = await send('DELETE', admin);
    expect(removed.statusCode).toBe(200);
    expect(envelope(companyScheduleSchema).parse(removed.json()).data.timetable).toBeNull();
    expect(await publicSchedule()).toBeNull();
    expect((await read()).timetable).toBeNull();
    const exceptions = await t.app.db
      .selectFrom('schedule_exceptions')
      .select('id')
      .where('company_id', '=', company)
      .execute();
    expect(exceptions).toEqual([]);
  });
});

describe('who may not touch the timetable', () => {
  it('refuses anonymous callers, guests, agents and other companies’ admins, changing nothing', async () => {
    const [guest, agent, foreignAdmin] = await Promise.all([
      loginGuest(t.app, company),
      loginStaff(t.app, 'ada@frontdesk.demo'),
      loginStaff(t.app, 'zoe@frontdesk.demo'),
    ]);
    const { version } = await read();
    const callers: [string, string | undefined, number, string][] = [
      ['anonymous', undefined, 401, 'unauthenticated'],
      ['guest', guest.token, 403, 'staff_only'],
      ['agent', agent, 403, 'admins_only'],
      ['other company’s admin', foreignAdmin, 403, 'other_company'],
    ];
    for (const [who, token, status, code] of callers) {
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        const response = await send(method, token, method === 'PUT' ? timetable() : undefined);
        expect(response.statusCode, `${who} ${method}`).toBe(status);
        expect(response.json().error.code, `${who} ${method}`).toBe(code);
      }
    }
    expect((await read()).version).toBe(version);
  });
});
