import { existsSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import {
  COMPANY_RETENTION_KINDS,
  DEFAULT_RETENTION_PERIODS,
  RETENTION_RUNS_SHOWN,
  type CompanyRetentionKind,
  type InstanceRetentionKind,
  type RetentionPeriods,
  type RetentionPeriodsBody,
  type RetentionRun,
  type RetentionSettings,
} from '@frontdesk/protocol';
import { changeCompany, type CompanyChangeOptions } from '../audit/company-changes.ts';
import type { Database } from '../db/schema.ts';
import type { FileStorage } from '../uploads/file-storage.ts';
import {
  deleteRecordingFiles,
  deleteRows,
  deleteUploads,
  removeGuestIdentities,
} from './deletion.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows deleted per statement: a night's backlog never holds one long lock. */
const BATCH = 500;

/** The `company_retention` column of each kind. */
const COLUMN = {
  recordings: 'recordings_days',
  uploads: 'uploads_days',
  welcomeAnswers: 'welcome_answers_days',
  ratingAnswers: 'rating_answers_days',
  callBugs: 'call_bugs_days',
  guests: 'guests_days',
  auditEntries: 'audit_entries_days',
} as const satisfies Record<CompanyRetentionKind, keyof Database['company_retention']>;

/** The company's periods: its row, or the defaults when its admins never set any. */
export async function retentionPeriods(
  db: Kysely<Database>,
  companyId: number,
): Promise<RetentionPeriods> {
  const row = await db
    .selectFrom('company_retention')
    .selectAll()
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  if (!row) return { ...DEFAULT_RETENTION_PERIODS };
  return Object.fromEntries(
    COMPANY_RETENTION_KINDS.map((kind) => [kind, row[COLUMN[kind]]]),
  ) as RetentionPeriods;
}

const settingsOf = (periods: RetentionPeriods): RetentionSettings => ({
  periods,
  defaults: DEFAULT_RETENTION_PERIODS,
});

export async function retentionSettings(
  db: Kysely<Database>,
  companyId: number,
): Promise<RetentionSettings> {
  return settingsOf(await retentionPeriods(db, companyId));
}

/** `PUT /company/:id/retention`: the periods named change, the others stay; audited. */
export async function updateRetentionPeriods(
  db: Kysely<Database>,
  options: CompanyChangeOptions,
  body: RetentionPeriodsBody,
): Promise<{ result: RetentionSettings; version: number }> {
  const { companyId } = options;
  return changeCompany(db, options, async (trx) => {
    const before = await retentionPeriods(trx, companyId);
    const after = { ...before, ...body };
    const columns = Object.fromEntries(
      COMPANY_RETENTION_KINDS.map((kind) => [COLUMN[kind], after[kind]]),
    ) as Record<(typeof COLUMN)[CompanyRetentionKind], number>;
    await trx
      .insertInto('company_retention')
      .values({ company_id: companyId, ...columns })
      .onConflict((oc) =>
        oc.column('company_id').doUpdateSet({ ...columns, updated_at: new Date() }),
      )
      .execute();
    const changed = COMPANY_RETENTION_KINDS.filter((kind) => before[kind] !== after[kind]);
    return {
      action: 'retention.update',
      target: `company ${companyId}`,
      before: Object.fromEntries(changed.map((kind) => [kind, before[kind]])),
      after: Object.fromEntries(changed.map((kind) => [kind, after[kind]])),
      result: settingsOf(after),
    };
  });
}

/** The company's last runs, newest first, with each kind's count (0 when none was written). */
export async function recentRetentionRuns(
  db: Kysely<Database>,
  companyId: number,
): Promise<RetentionRun[]> {
  const rows = await db
    .selectFrom('retention_runs')
    .select(['run_at', 'kind', 'deleted'])
    .where('company_id', '=', companyId)
    .where('run_at', 'in', (eb) =>
      eb
        .selectFrom('retention_runs')
        .select('run_at')
        .distinct()
        .where('company_id', '=', companyId)
        .orderBy('run_at', 'desc')
        .limit(RETENTION_RUNS_SHOWN),
    )
    .orderBy('run_at', 'desc')
    .execute();
  const runs = new Map<number, RetentionRun>();
  for (const row of rows) {
    const at = row.run_at.getTime();
    let run = runs.get(at);
    if (!run) {
      const deleted = Object.fromEntries(COMPANY_RETENTION_KINDS.map((kind) => [kind, 0]));
      run = { runAt: row.run_at.toISOString(), deleted: deleted as RetentionRun['deleted'] };
      runs.set(at, run);
    }
    if ((COMPANY_RETENTION_KINDS as readonly string[]).includes(row.kind)) {
      run.deleted[row.kind as CompanyRetentionKind] = row.deleted;
    }
  }
  return [...runs.values()];
}

/** Where the files of what is deleted are. */
export type RetentionPlaces = {
  uploads: FileStorage;
  /** The merged films and Janus's parts (`<data>/recordings`). */
  recordings: string;
  /** The browsers' error reports kept on disk (`<data>/monitoring/<day>/`). */
  monitoring: string;
  /** The services' log files (`<data>/logs`). */
  logs: string;
};

/** The places under the data folder (`FRONTDESK_DATA_DIR`, infra's data-dir.ts). */
export const retentionPlacesOf = (dataDir: string, uploads: FileStorage): RetentionPlaces => ({
  uploads,
  recordings: join(dataDir, 'recordings'),
  monitoring: join(dataDir, 'monitoring'),
  logs: join(dataDir, 'logs'),
});

/** The instance's own periods, in days (`MONITORING_RETENTION_DAYS`, `LOG_RETENTION_DAYS`). */
export type InstanceRetention = Record<InstanceRetentionKind, number>;

/** Deletes batch after batch of what `next` selects until it selects nothing; the total. */
async function inBatches<T>(
  next: () => Promise<T[]>,
  remove: (batch: T[]) => Promise<number>,
): Promise<number> {
  let total = 0;
  for (;;) {
    const batch = await next();
    if (batch.length === 0) return total;
    total += await remove(batch);
  }
}

/** Tables whose rows carry their company and creation time. */
type CompanyTable = 'uploads' | 'form_submissions' | 'call_bugs' | 'audit_entries';

/** A batch of the company's rows of `table` written before `cutoff`. */
async function idsBefore(
  db: Kysely<Database>,
  table: CompanyTable,
  companyId: number,
  cutoff: Date,
) {
  return db
    .selectFrom(table)
    .select('id')
    .where('company_id', '=', companyId)
    .where('created_at', '<', cutoff)
    .limit(BATCH)
    .execute();
}

/** What of `companyId` of one kind is older than `cutoff`, deleted; how many. */
async function expireCompanyKind(
  db: Kysely<Database>,
  places: RetentionPlaces,
  companyId: number,
  kind: CompanyRetentionKind,
  cutoff: Date,
  now: Date,
): Promise<number> {
  const numbers = (rows: { id: number | string }[]) => rows.map((row) => Number(row.id));
  switch (kind) {
    case 'recordings':
      return inBatches(
        async () =>
          (
            await db
              .selectFrom('call_recordings')
              .select('call_report_id')
              .where('company_id', '=', companyId)
              .where('created_at', '<', cutoff)
              .where('expired_at', 'is', null)
              .where('status', '!=', 'pending')
              .limit(BATCH)
              .execute()
          ).map((row) => row.call_report_id),
        (batch) => deleteRecordingFiles(db, places.recordings, batch, now),
      );
    case 'uploads':
      return inBatches(
        async () =>
          (await idsBefore(db, 'uploads', companyId, cutoff)).map((row) => String(row.id)),
        (batch) => deleteUploads(db, places.uploads, batch),
      );
    case 'welcomeAnswers':
      return inBatches(
        async () => numbers(await idsBefore(db, 'form_submissions', companyId, cutoff)),
        (batch) => deleteRows(db, 'form_submissions', batch),
      );
    case 'callBugs':
      return inBatches(
        async () => numbers(await idsBefore(db, 'call_bugs', companyId, cutoff)),
        (batch) => deleteRows(db, 'call_bugs', batch),
      );
    case 'auditEntries':
      return inBatches(
        async () => numbers(await idsBefore(db, 'audit_entries', companyId, cutoff)),
        (batch) => deleteRows(db, 'audit_entries', batch),
      );
    case 'ratingAnswers':
      // Rating answers name their company through their call.
      return inBatches(
        async () =>
          numbers(
            await db
              .selectFrom('rating_submissions')
              .innerJoin('call_reports', 'call_reports.id', 'rating_submissions.call_report_id')
              .select('rating_submissions.id')
              .where('call_reports.company_id', '=', companyId)
              .where('rating_submissions.created_at', '<', cutoff)
              .limit(BATCH)
              .execute(),
          ),
        (batch) => deleteRows(db, 'rating_submissions', batch),
      );
    case 'guests':
      // Inactive: registered, last logged in and last called before the cutoff.
      return inBatches(
        async () =>
          numbers(
            await db
              .selectFrom('guests')
              .select('id')
              .where('company_id', '=', companyId)
              .where('identity_removed_at', 'is', null)
              .where(sql<boolean>`greatest(created_at, last_login_at) < ${cutoff}`)
              .where(({ not, exists, selectFrom }) =>
                not(
                  exists(
                    selectFrom('call_reports')
                      .select('call_reports.id')
                      .whereRef('call_reports.guest_id', '=', 'guests.id')
                      .where('call_reports.created_at', '>=', cutoff),
                  ),
                ),
              )
              .limit(BATCH)
              .execute(),
          ),
        (batch) => removeGuestIdentities(db, batch, now),
      );
  }
}

/** Error reports kept on disk: each day's folder once the whole day is past the cutoff. */
async function expireMonitoringEnvelopes(folder: string, cutoff: Date): Promise<number> {
  if (!existsSync(folder)) return 0;
  let deleted = 0;
  for (const day of await readdir(folder)) {
    const start = Date.parse(`${day}T00:00:00Z`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(start)) continue;
    if (start + DAY_MS > cutoff.getTime()) continue;
    const path = join(folder, day);
    deleted += (await readdir(path)).filter((name) => name.endsWith('.envelope')).length;
    await rm(path, { recursive: true, force: true });
  }
  return deleted;
}

/**
 * The services' rotated logs (`api.log.3.gz`, service-log.ts) last written before the cutoff.
 * The live files are rotated by size and never deleted here.
 */
async function expireServerLogs(folder: string, cutoff: Date): Promise<number> {
  if (!existsSync(folder)) return 0;
  let deleted = 0;
  for (const name of await readdir(folder)) {
    if (!/\.log\.\d+\.gz$/.test(name)) continue;
    const path = join(folder, name);
    if ((await stat(path)).mtime >= cutoff) continue;
    await rm(path, { force: true });
    deleted += 1;
  }
  return deleted;
}

const cutoffOf = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS);

/**
 * One retention run as of `now` (decision 0031): for every company and kind, what is older than
 * its period is deleted, files and rows; then the instance's error reports and rotated logs.
 * Each count is written to `retention_runs` (0 included: the admins see the run happened). Safe
 * to run again: what one run did not finish, the next does.
 */
export async function runRetention(
  db: Kysely<Database>,
  places: RetentionPlaces,
  instance: InstanceRetention,
  now: Date,
): Promise<void> {
  const companies = await db.selectFrom('companies').select('id').orderBy('id').execute();
  for (const { id: companyId } of companies) {
    const periods = await retentionPeriods(db, companyId);
    const counts: { kind: CompanyRetentionKind; deleted: number }[] = [];
    for (const kind of COMPANY_RETENTION_KINDS) {
      const cutoff = cutoffOf(now, periods[kind]);
      counts.push({
        kind,
        deleted: await expireCompanyKind(db, places, companyId, kind, cutoff, now),
      });
    }
    await db
      .insertInto('retention_runs')
      .values(counts.map((count) => ({ run_at: now, company_id: companyId, ...count })))
      .execute();
    // The runs' own record is a log like the audit entries, kept as long.
    await db
      .deleteFrom('retention_runs')
      .where('company_id', '=', companyId)
      .where('run_at', '<', cutoffOf(now, periods.auditEntries))
      .execute();
  }
  const instanceCounts: { kind: InstanceRetentionKind; deleted: number }[] = [
    {
      kind: 'monitoringEnvelopes',
      deleted: await expireMonitoringEnvelopes(
        places.monitoring,
        cutoffOf(now, instance.monitoringEnvelopes),
      ),
    },
    {
      kind: 'serverLogs',
      deleted: await expireServerLogs(places.logs, cutoffOf(now, instance.serverLogs)),
    },
  ];
  await db
    .insertInto('retention_runs')
    .values(instanceCounts.map((count) => ({ run_at: now, company_id: null, ...count })))
    .execute();
}
