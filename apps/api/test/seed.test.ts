import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newRoomPassword } from '@frontdesk/chat/server';
import { DEMO_LOGINS, SEEDED_COMPANY, seedDemo } from '../src/db/seed.ts';
import { buildTestApp, loginStaff, type TestApp } from './helper.ts';

describe('seedDemo', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(
      {},
      { seed: (db, config) => seedDemo(db, { fingerprintKey: config.secrets.guestFingerprint }) },
    );
  });
  afterAll(() => t.close());

  const count = async (table: 'companies' | 'categories' | 'forms' | 'staff' | 'schedule_hours') =>
    (
      await t.app.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;

  it('seeds every documented company and login', async () => {
    const ids = await t.app.db.selectFrom('companies').select('id').orderBy('id').execute();
    expect(ids.map((c) => c.id)).toEqual(Object.values(SEEDED_COMPANY).sort((a, b) => a - b));
    expect(await count('staff')).toBe(DEMO_LOGINS.length);
  });

  it('changes nothing when it runs again, and leaves the serials past its ids', async () => {
    const before = await Promise.all([
      count('companies'),
      count('categories'),
      count('forms'),
      count('staff'),
      count('schedule_hours'),
    ]);
    await seedDemo(t.app.db, { fingerprintKey: t.config.secrets.guestFingerprint });
    const after = await Promise.all([
      count('companies'),
      count('categories'),
      count('forms'),
      count('staff'),
      count('schedule_hours'),
    ]);
    expect(after).toEqual(before);
    await loginStaff(t.app, 'admin@frontdesk.demo');
    const created = await t.app.db
      .insertInto('companies')
      .values({
        name: 'New Co',
        conference_name: 'new-co',
        room_password: newRoomPassword(),
        monthly_call_quota: null,
        settings: '{}',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(created.id).toBeGreaterThan(Math.max(...Object.values(SEEDED_COMPANY)));
  });
});
