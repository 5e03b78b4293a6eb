import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDate } from '@frontdesk/protocol';
import { SEEDED_COMPANY } from '../../src/db/seed.ts';
import { addCall, bearer, buildTestApp, loginGuest, loginStaff, type TestApp } from '../helper.ts';

const company = SEEDED_COMPANY.demo;
const timeZone = 'Europe/London';

/**
 * Attack: on a holiday the guest page shows the timetable, and a guest reports a call straight
 * to the API anyway. The API works out the timetable itself, exceptions included, and refuses.
 */
describe('attack: calling on a holiday', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await loginStaff(t.app, 'admin@frontdesk.demo');
  });
  afterAll(() => t.close());

  /** Open every hour of the week, with `exceptions`, through the admin's own route. */
  const setTimetable = async (exceptions: object[]) => {
    const hours = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
      weekday,
      opens: '00:00',
      closes: '00:00',
    }));
    const response = await t.app.inject({
      method: 'PUT',
      url: `/api/company/${company}/schedule`,
      headers: bearer(admin),
      body: { timeZone, hours, exceptions },
    });
    expect(response.statusCode, response.body).toBe(200);
  };
  const tryCall = async () => {
    const guest = await loginGuest(t.app, company);
    const { callId, response } = await addCall(t.app, guest, company);
    const reports = await t.app.db
      .selectFrom('call_reports')
      .select('id')
      .where('call_id', '=', callId)
      .execute();
    return { response, reports };
  };

  it('refuses the call (out_of_hours) on a date closed all day, though its weekday is open', async () => {
    const today = localDate(new Date(), timeZone);
    await setTimetable([{ date: today, label: 'Bank holiday', hours: [] }]);
    const { response, reports } = await tryCall();
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('out_of_hours');
    expect(reports).toEqual([]);
  });

  it('lets the same call through once the holiday is taken out', async () => {
    await setTimetable([]);
    const { response, reports } = await tryCall();
    expect(response.statusCode, response.body).toBe(201);
    expect(reports).toHaveLength(1);
  });
});
