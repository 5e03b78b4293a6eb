import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETENTION_QUEUE } from '../src/privacy/retention-jobs.ts';
import { jobSchemaOf } from '../src/recordings/recording-jobs.ts';
import { buildReplica, buildTestApp, type TestApp } from './helper.ts';

/** pg-boss's check of its schedules, every 30 s by default: one per process. */
const CRON_CHECK_MS = 30_000;

/**
 * Decision 0038: the nightly retention run is put on its queue once per night however many API
 * processes run pg-boss's scheduler. Here its schedule is every minute, so a test sees a night.
 */
describe('the retention schedule with two replicas', () => {
  let t: TestApp;
  let replica: Awaited<ReturnType<typeof buildReplica>>;
  const table = (name: string) =>
    sql.table(`${jobSchemaOf(t.config.databaseSchema ?? '')}.${name}`);

  beforeAll(async () => {
    t = await buildTestApp();
    replica = await buildReplica(t);
    await sql`update ${table('schedule')} set cron = '* * * * *' where name = ${RETENTION_QUEUE}`.execute(
      t.app.db,
    );
  });
  afterAll(async () => {
    await replica?.close();
    await t?.close();
  });

  const runsByMinute = async () => {
    const { rows } = await sql<{ minute: string; runs: number }>`
      select date_trunc('minute', created_on)::text as minute, count(*)::int as runs
      from ${table('job')} where name = ${RETENTION_QUEUE} group by 1 order by 1`.execute(t.app.db);
    return rows;
  };

  it('puts one run on the queue per scheduled time, not one per process', async () => {
    const deadline = Date.now() + 60_000 + 3 * CRON_CHECK_MS;
    while ((await runsByMinute()).length === 0 && Date.now() < deadline) await sleep(1000);
    // Both processes' scheduler checks have come round within the scheduled minute since.
    await sleep(CRON_CHECK_MS + 5000);
    const minutes = await runsByMinute();
    expect(minutes.length).toBeGreaterThan(0);
    expect(minutes.every((minute) => minute.runs === 1)).toBe(true);
  }, 240_000);
});
