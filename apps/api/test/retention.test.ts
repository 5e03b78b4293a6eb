import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY_RETENTION_KINDS, retentionRunSchema } from '@frontdesk/protocol';
import { SEEDED_COMPANY } from '../src/db/seed.ts';
import { newGuestUsername } from '../src/guests/guest-identity.ts';
import { REMOVED_FINGERPRINT } from '../src/privacy/deletion.ts';
import { RETENTION_CRON, RETENTION_QUEUE } from '../src/privacy/retention-jobs.ts';
import { retentionPlacesOf, runRetention } from '../src/privacy/retention.ts';
import { jobSchemaOf } from '../src/recordings/recording-jobs.ts';
import { recordingsOf } from '../src/recordings/recording-list.ts';
import { bearer, buildTestApp, loginStaff, newCallId, type TestApp } from './helper.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const COMPANY = SEEDED_COMPANY.demo;
const OTHER = SEEDED_COMPANY.aroundTheClock;
/** The seeded companies' welcome and rating forms. */
const FORMS = {
  [COMPANY]: { welcome: 1, rating: 2 },
  [OTHER]: { welcome: 4, rating: 5 },
} as const;

/** Tables whose rows are written at a time the test chooses. */
type Backdated =
  | 'guests'
  | 'call_reports'
  | 'call_recordings'
  | 'uploads'
  | 'form_submissions'
  | 'rating_submissions'
  | 'call_bugs'
  | 'audit_entries';

/**
 * Retention (decision 0031) with the clock moved forward: data of every kind, some older than
 * its company's period as of the run's `now` and some not, in two companies, and the instance's
 * error reports and rotated logs. A run deletes exactly what is past its period, files and rows,
 * leaves the calls the reports count, and stores its counts.
 */
describe('retention run', () => {
  let t: TestApp;
  const realNow = new Date();
  const old = new Date(realNow.getTime() - 30 * DAY_MS);
  /** 40 days on: what was written 30 days ago is 70 days old, what was written now 40. */
  const runNow = new Date(realNow.getTime() + 40 * DAY_MS);
  let places: ReturnType<typeof retentionPlacesOf>;

  const backdate = async (
    table: Backdated,
    column: 'id' | 'call_report_id',
    id: unknown,
    at: Date,
  ) =>
    sql`update ${sql.table(table)} set created_at = ${at} where ${sql.ref(column)} = ${id}`.execute(
      t.app.db,
    );

  async function addGuest(companyId: number, at: Date) {
    const username = newGuestUsername();
    const guest = await t.app.db
      .insertInto('guests')
      .values({
        company_id: companyId,
        username,
        fingerprint: randomBytes(32).toString('hex'),
        jabberusername: `${companyId}-${username}`,
        credential_hash: randomBytes(32).toString('hex'),
        location_lat: 51.5,
        location_lng: -0.12,
      })
      .returning(['id', 'username'])
      .executeTakeFirstOrThrow();
    await backdate('guests', 'id', guest.id, at);
    return guest;
  }

  /** One of each kind at `companyId`, written at `at`; what each row and file is. */
  async function seedEveryKind(companyId: typeof COMPANY | typeof OTHER, at: Date) {
    const { db } = t.app;
    const guest = await addGuest(companyId, at);
    const callId = newCallId(guest);
    const call = await db
      .insertInto('call_reports')
      .values({
        company_id: companyId,
        guest_id: guest.id,
        call_id: callId,
        origin_call_id: callId,
        source: 'site',
        status: 'ok',
        answered_at: at,
        ended_at: at,
        end_reason: 'completed',
        rating: 4,
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    const film = `${companyId}-${callId}.mp4`;
    const part = `videoroom-${callId}-user-guest-${randomBytes(16).toString('hex')}-1-audio-0.mjr`;
    await mkdir(places.recordings, { recursive: true });
    for (const name of [film, part]) await writeFile(join(places.recordings, name), 'media');
    await db
      .insertInto('call_recordings')
      .values({
        call_report_id: call.id,
        company_id: companyId,
        status: 'ready',
        file_name: film,
        size_bytes: 5,
      })
      .execute();

    const upload = randomBytes(12).toString('base64url');
    const uploadFile = join(t.config.dataDir, 'uploads', upload.slice(0, 2), upload);
    await mkdir(join(uploadFile, '..'), { recursive: true });
    await writeFile(uploadFile, 'a file');
    await db
      .insertInto('uploads')
      .values({
        id: upload,
        company_id: companyId,
        guest_id: guest.id,
        call_report_id: call.id,
        type: 'document',
        content_type: 'text/plain',
        size_bytes: 6,
        original_name: 'notes.txt',
      })
      .execute();

    const welcome = await db
      .insertInto('form_submissions')
      .values({
        company_id: companyId,
        guest_id: guest.id,
        form_id: FORMS[companyId].welcome,
        service_type: 'Talk',
        answers: JSON.stringify({ name: 'Rita Example' }),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const rating = await db
      .insertInto('rating_submissions')
      .values({
        call_report_id: call.id,
        form_id: FORMS[companyId].rating,
        guest_id: guest.id,
        answers: JSON.stringify({ comment: 'Lovely' }),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const bug = await db
      .insertInto('call_bugs')
      .values({
        company_id: companyId,
        guest_id: guest.id,
        call_id: callId,
        call_report_id: call.id,
        guest_log: JSON.stringify(['camera failed']),
        guest_state: JSON.stringify({}),
        guest_client_info: JSON.stringify({}),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const audit = await db
      .insertInto('audit_entries')
      .values({ company_id: companyId, actor: 'test', action: 'company.update', target: 'x' })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Every row written at `at`, as if then.
    for (const [table, column, id] of [
      ['call_reports', 'id', call.id],
      ['call_recordings', 'call_report_id', call.id],
      ['uploads', 'id', upload],
      ['form_submissions', 'id', welcome.id],
      ['rating_submissions', 'id', rating.id],
      ['call_bugs', 'id', bug.id],
      ['audit_entries', 'id', audit.id],
    ] as const) {
      await backdate(table, column, id, at);
    }

    return {
      guestId: guest.id,
      callReportId: call.id,
      files: [join(places.recordings, film), join(places.recordings, part), uploadFile],
      upload,
      welcomeId: welcome.id,
      ratingId: rating.id,
      bugId: bug.id,
      auditId: Number(audit.id),
    };
  }
  type Seeded = Awaited<ReturnType<typeof seedEveryKind>>;
  let companyOld: Seeded;
  let companyFresh: Seeded;
  let otherOld: Seeded;
  let lonelyGuestId: number;
  /** An upload whose file an earlier run deleted before it crashed: its row is still there. */
  let crashedUpload: string;
  const instanceFiles = { oldEnvelope: '', freshEnvelope: '', oldLog: '', freshLog: '', live: '' };

  const exists = async (
    table: 'form_submissions' | 'rating_submissions' | 'call_bugs',
    id: number,
  ) =>
    (await t.app.db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst()) !==
    undefined;
  const uploadExists = async (id: string) =>
    (await t.app.db.selectFrom('uploads').select('id').where('id', '=', id).executeTakeFirst()) !==
    undefined;
  const auditExists = async (id: number) =>
    (await t.app.db
      .selectFrom('audit_entries')
      .select('id')
      .where('id', '=', String(id))
      .executeTakeFirst()) !== undefined;
  const guest = (id: number) =>
    t.app.db.selectFrom('guests').selectAll().where('id', '=', id).executeTakeFirst();
  const recording = (callReportId: number) =>
    t.app.db
      .selectFrom('call_recordings')
      .selectAll()
      .where('call_report_id', '=', callReportId)
      .executeTakeFirstOrThrow();
  const countsOf = async (companyId: number | null, at: Date) => {
    const rows = await t.app.db
      .selectFrom('retention_runs')
      .select(['kind', 'deleted'])
      .where('run_at', '=', at)
      .where('company_id', companyId === null ? 'is' : '=', companyId)
      .execute();
    return Object.fromEntries(rows.map((row) => [row.kind, row.deleted]));
  };
  const callCounts = async () => ({
    calls: (await t.app.db.selectFrom('call_reports').select('id').execute()).length,
    conversations: (
      await t.app.db.selectFrom('report_conversations').select(['origin_id', 'rating']).execute()
    ).length,
  });

  beforeAll(async () => {
    t = await buildTestApp();
    places = retentionPlacesOf(t.config.dataDir, t.app.fileStorage);
    // The demo company keeps everything 60 days, through its admin's page's route; the other
    // company keeps the defaults (90 days and more), so nothing of its goes.
    const admin = await loginStaff(t.app, 'admin@frontdesk.demo');
    const periods = Object.fromEntries(COMPANY_RETENTION_KINDS.map((kind) => [kind, 60]));
    const set = await t.app.inject({
      method: 'PUT',
      url: `/api/company/${COMPANY}/retention`,
      headers: bearer(admin),
      body: periods,
    });
    expect(set.statusCode, set.body).toBe(200);

    companyOld = await seedEveryKind(COMPANY, old);
    companyFresh = await seedEveryKind(COMPANY, realNow);
    otherOld = await seedEveryKind(OTHER, old);
    lonelyGuestId = (await addGuest(COMPANY, old)).id;
    crashedUpload = randomBytes(12).toString('base64url');
    await t.app.db
      .insertInto('uploads')
      .values({
        id: crashedUpload,
        company_id: COMPANY,
        guest_id: null,
        type: 'image',
        content_type: 'image/png',
        size_bytes: 1,
        original_name: 'gone.png',
      })
      .execute();
    await backdate('uploads', 'id', crashedUpload, old);

    const day = (at: Date) => at.toISOString().slice(0, 10);
    for (const [key, at] of [
      ['oldEnvelope', old],
      ['freshEnvelope', realNow],
    ] as const) {
      const folder = join(places.monitoring, day(at));
      await mkdir(folder, { recursive: true });
      instanceFiles[key] = join(folder, `${at.getTime()}.envelope`);
      await writeFile(instanceFiles[key], 'envelope');
    }
    await mkdir(places.logs, { recursive: true });
    instanceFiles.oldLog = join(places.logs, 'api.log.2.gz');
    instanceFiles.freshLog = join(places.logs, 'api.log.1.gz');
    instanceFiles.live = join(places.logs, 'api.log');
    for (const [file, at] of [
      [instanceFiles.oldLog, old],
      [instanceFiles.freshLog, realNow],
      [instanceFiles.live, old],
    ] as const) {
      await writeFile(file, 'log');
      await utimes(file, at, at);
    }
  });
  afterAll(() => t.close());

  it('is scheduled nightly on the durable job queue', async () => {
    const { rows } = await sql<{ name: string; cron: string; timezone: string }>`
      select name, cron, timezone from ${sql.table(`${jobSchemaOf(t.config.databaseSchema ?? '')}.schedule`)}`.execute(
      t.app.db,
    );
    expect(rows).toEqual([{ name: RETENTION_QUEUE, cron: RETENTION_CRON, timezone: 'UTC' }]);
  });

  it('deletes nothing that is within its period today', async () => {
    const before = await callCounts();
    await runRetention(t.app.db, places, { monitoringEnvelopes: 60, serverLogs: 60 }, realNow);
    for (const companyId of [COMPANY, OTHER]) {
      expect(await countsOf(companyId, realNow)).toEqual(
        Object.fromEntries(COMPANY_RETENTION_KINDS.map((kind) => [kind, 0])),
      );
    }
    expect(await countsOf(null, realNow)).toEqual({ monitoringEnvelopes: 0, serverLogs: 0 });
    for (const file of [...companyOld.files, ...companyFresh.files, ...otherOld.files]) {
      expect(existsSync(file), file).toBe(true);
    }
    expect(await callCounts()).toEqual(before);
  });

  it('40 days on, deletes exactly what is past its period, files and rows, and counts it', async () => {
    // A crash of an earlier run between an upload's file and its row (decision 0031).
    await rm(join(t.config.dataDir, 'uploads', crashedUpload.slice(0, 2), crashedUpload), {
      force: true,
    });
    const before = await callCounts();
    await runRetention(t.app.db, places, { monitoringEnvelopes: 60, serverLogs: 60 }, runNow);

    // The demo company's 70-day-old data: gone, files first.
    for (const file of companyOld.files) expect(existsSync(file), file).toBe(false);
    expect(await uploadExists(companyOld.upload)).toBe(false);
    expect(await uploadExists(crashedUpload)).toBe(false);
    expect(await exists('form_submissions', companyOld.welcomeId)).toBe(false);
    expect(await exists('rating_submissions', companyOld.ratingId)).toBe(false);
    expect(await exists('call_bugs', companyOld.bugId)).toBe(false);
    expect(await auditExists(companyOld.auditId)).toBe(false);
    // The recording's row stays, with its status, for the reports; the film is gone.
    expect(await recording(companyOld.callReportId)).toMatchObject({
      status: 'ready',
      file_name: null,
      expired_at: runNow,
    });
    // The admin's call page lists it as deleted, with no link to play it.
    expect(
      await recordingsOf(t.app.db, t.config.secrets.apiToken, { companyId: COMPANY, staffId: 1 }, [
        companyOld.callReportId,
      ]),
    ).toEqual([expect.objectContaining({ url: null, expiredAt: runNow.toISOString() })]);
    // A guest who called keeps a row with nothing that identifies it; one who never did is gone.
    expect(await guest(companyOld.guestId)).toMatchObject({
      fingerprint: REMOVED_FINGERPRINT,
      credential_hash: null,
      location_lat: null,
      location_lng: null,
      identity_removed_at: runNow,
    });
    expect(await guest(lonelyGuestId)).toBeUndefined();

    // The demo company's 40-day-old data and the other company's 70-day-old data: all there.
    for (const kept of [companyFresh, otherOld]) {
      for (const file of kept.files) expect(existsSync(file), file).toBe(true);
      expect(await uploadExists(kept.upload)).toBe(true);
      expect(await exists('form_submissions', kept.welcomeId)).toBe(true);
      expect(await exists('rating_submissions', kept.ratingId)).toBe(true);
      expect(await exists('call_bugs', kept.bugId)).toBe(true);
      expect(await auditExists(kept.auditId)).toBe(true);
      expect(await recording(kept.callReportId)).toMatchObject({
        file_name: expect.any(String),
        expired_at: null,
      });
      expect(await guest(kept.guestId)).toMatchObject({
        credential_hash: expect.any(String),
        identity_removed_at: null,
      });
    }
    // The admin's change of the periods, written today, is in the log still.
    expect(
      await t.app.db
        .selectFrom('audit_entries')
        .select('action')
        .where('company_id', '=', COMPANY)
        .where('action', '=', 'retention.update')
        .execute(),
    ).toHaveLength(1);

    // The reports count the same calls.
    expect(await callCounts()).toEqual(before);

    // The instance's error reports and rotated logs past 60 days; the live log stays.
    expect(existsSync(instanceFiles.oldEnvelope)).toBe(false);
    expect(existsSync(instanceFiles.freshEnvelope)).toBe(true);
    expect(existsSync(instanceFiles.oldLog)).toBe(false);
    expect(existsSync(instanceFiles.freshLog)).toBe(true);
    expect(existsSync(instanceFiles.live)).toBe(true);

    expect(await countsOf(COMPANY, runNow)).toEqual({
      recordings: 1,
      uploads: 2,
      welcomeAnswers: 1,
      ratingAnswers: 1,
      callBugs: 1,
      guests: 2,
      auditEntries: 1,
    });
    expect(await countsOf(OTHER, runNow)).toEqual(
      Object.fromEntries(COMPANY_RETENTION_KINDS.map((kind) => [kind, 0])),
    );
    expect(await countsOf(null, runNow)).toEqual({ monitoringEnvelopes: 1, serverLogs: 1 });
  });

  it('shows the company’s admin its runs, newest first, counts only', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/company/${COMPANY}/retention/runs`,
      headers: bearer(await loginStaff(t.app, 'admin@frontdesk.demo')),
    });
    expect(response.statusCode).toBe(200);
    const runs = retentionRunSchema.array().parse(response.json().data);
    expect(runs.map((run) => run.runAt)).toEqual([runNow.toISOString(), realNow.toISOString()]);
    expect(runs[0]?.deleted).toEqual({
      recordings: 1,
      uploads: 2,
      welcomeAnswers: 1,
      ratingAnswers: 1,
      callBugs: 1,
      guests: 2,
      auditEntries: 1,
    });
  });

  it('run again, finds nothing more to delete', async () => {
    const again = new Date(runNow.getTime() + 1000);
    await runRetention(t.app.db, places, { monitoringEnvelopes: 60, serverLogs: 60 }, again);
    expect(await countsOf(COMPANY, again)).toEqual(
      Object.fromEntries(COMPANY_RETENTION_KINDS.map((kind) => [kind, 0])),
    );
  });
});
