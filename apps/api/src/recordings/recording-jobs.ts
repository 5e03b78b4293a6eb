import { existsSync } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import PgBoss from 'pg-boss';
import { z } from 'zod';
import { mergeCallRecording } from '@frontdesk/media/server';
import { companySettingsSchema } from '@frontdesk/protocol';
import { isRecorded } from '../calls/call-reports.ts';
import type { CallReportRow, Database } from '../db/schema.ts';
import { callRecordingParts } from './recording-files.ts';

/** The queue of merges, one job per ended recorded call leg. */
export const MERGE_QUEUE = 'recording-merge';
/** Where pg-boss moves a merge that failed its last attempt, so its row is marked `failed`. */
const FAILED_MERGE_QUEUE = 'recording-merge-failed';

/**
 * pg-boss's schema beside the API's own: `<current schema>_jobs` (`public_jobs` in production),
 * so each test run's API, working in a schema of its own, also has a queue of its own.
 */
export const jobSchemaOf = (schema: string) => `${schema}_jobs`;

/** The job schema of the API's connections: `DATABASE_SCHEMA`'s when set, else the current one's. */
export async function apiJobSchema(
  db: Kysely<Database>,
  databaseSchema: string | undefined,
): Promise<string> {
  if (databaseSchema !== undefined) return jobSchemaOf(databaseSchema);
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return jobSchemaOf(rows[0]?.schema ?? 'public');
}

/** Turns a call's .mjr files (per participant) into one MP4 at `output`. */
export type MergeRecording = (options: {
  participants: readonly (readonly string[])[];
  output: string;
}) => Promise<{ durationSeconds: number }>;

export type RecordingJobSettings = {
  merge: MergeRecording;
  /** Janus needs a moment after the room is destroyed to close its recording files. */
  settleSeconds: number;
  /** Attempts after the first; then the recording is `failed`. */
  retryLimit: number;
  /** The first retry's delay; each next one doubles (with jitter). */
  retryDelaySeconds: number;
  /** How often an idle worker asks the queue for a job. */
  pollingIntervalSeconds: number;
  /** A merge running longer (or whose process died) is failed and tried again. */
  expireInSeconds: number;
};

/**
 * Three retries, 30 s, ~1 min and ~2 min after each failure: long enough for a full disk or a
 * Janus still writing to recover, short enough that the reports show a failure the same hour.
 * An hour per merge: ffmpeg needs minutes for a long call on a busy two-core machine.
 */
export const DEFAULT_RECORDING_JOB_SETTINGS: RecordingJobSettings = {
  merge: mergeCallRecording,
  settleSeconds: 1,
  retryLimit: 3,
  retryDelaySeconds: 30,
  pollingIntervalSeconds: 2,
  expireInSeconds: 60 * 60,
};

const jobDataSchema = z.object({ callReportId: z.number().int().positive() });
type JobData = z.infer<typeof jobDataSchema>;

/** When a stopping API gives up waiting for a running merge: before server.ts forces its exit. */
const STOP_TIMEOUT_MS = 8000;

/** The message of a failed job's output, as pg-boss stores it (an error, or `{value}`). */
function failureMessage(output: unknown): string | null {
  const parsed = z
    .union([
      z.object({ message: z.string() }),
      z.object({ value: z.string() }),
      z.object({ value: z.object({ message: z.string() }) }),
    ])
    .safeParse(output);
  if (!parsed.success) return null;
  const failure = parsed.data;
  if ('message' in failure) return failure.message;
  return typeof failure.value === 'string' ? failure.value : failure.value.message;
}

/**
 * The merge of recorded calls into one film each (issue 17), as durable jobs in PostgreSQL
 * (pg-boss, decision 0020): a job per ended recorded call leg, enqueued with its
 * `call_recordings` row in one transaction, run once by whichever API process fetches it first,
 * retried with back-off, and still there after a restart. The row tells the reports how it went.
 */
export class RecordingJobs {
  #boss: PgBoss | undefined;

  constructor(
    private readonly databaseUrl: string,
    /** `DATABASE_SCHEMA`, the API's connections' schema when set; else the server's default. */
    private readonly databaseSchema: string | undefined,
    private readonly db: Kysely<Database>,
    private readonly folder: string,
    private readonly log: FastifyBaseLogger,
    private readonly settings: RecordingJobSettings,
  ) {}

  /** Installs or upgrades pg-boss's tables, and starts this process's workers. */
  async start(): Promise<void> {
    const schema = await apiJobSchema(this.db, this.databaseSchema);
    const boss = new PgBoss({
      connectionString: this.databaseUrl,
      schema,
      application_name: `frontdesk-jobs-${schema}`,
      // Workers fetch one job at a time: two connections are plenty beside the API's pool.
      max: 2,
      // No cron jobs: without the scheduler pg-boss polls for nothing it does not need.
      schedule: false,
    });
    boss.on('error', (error) => this.log.error({ err: error }, 'recording jobs: queue error'));
    await boss.start();
    this.#boss = boss;
    const { retryLimit, retryDelaySeconds, expireInSeconds, pollingIntervalSeconds } =
      this.settings;
    await boss.createQueue(FAILED_MERGE_QUEUE);
    const queue = {
      name: MERGE_QUEUE,
      retryLimit,
      retryDelay: retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds,
      deadLetter: FAILED_MERGE_QUEUE,
    };
    await boss.createQueue(MERGE_QUEUE, queue);
    // A queue made by an earlier version keeps its settings unless told the current ones.
    await boss.updateQueue(MERGE_QUEUE, queue);
    await boss.work<JobData>(MERGE_QUEUE, { pollingIntervalSeconds, batchSize: 1 }, ([job]) =>
      job ? this.#merge(jobDataSchema.parse(job.data)) : Promise.resolve(),
    );
    await boss.work<JobData>(
      FAILED_MERGE_QUEUE,
      { pollingIntervalSeconds, batchSize: 1, includeMetadata: true },
      ([job]) =>
        job ? this.#markFailed(jobDataSchema.parse(job.data), job.output) : Promise.resolve(),
    );
  }

  /**
   * Lets a running merge finish (up to a few seconds), then stops. A merge cut off here is
   * failed by pg-boss and retried later, by this process after its restart or by another.
   */
  async stop(): Promise<void> {
    await this.#boss?.stop({ graceful: true, wait: true, timeout: STOP_TIMEOUT_MS });
  }

  /**
   * After a call leg ended: queues its merge, after Janus's settle delay, when it was answered in
   * a room (a p2p call never has one, call-rooms.ts) and is recorded (`isRecorded`: Janus
   * recorded the room from its creation). A leg whose room recorded nothing ends `empty`.
   * Idempotent: an end repeated (both sides end, a retried request) queues nothing more.
   */
  async mergeAfterCall(call: CallReportRow): Promise<void> {
    if (call.end_reason !== 'completed' || call.room_secret === null) return;
    const company = await this.db
      .selectFrom('companies')
      .select('settings')
      .where('id', '=', call.company_id)
      .executeTakeFirstOrThrow();
    if (!isRecorded(companySettingsSchema.parse(company.settings), call)) return;
    await this.#enqueue(call);
  }

  async #enqueue(call: CallReportRow): Promise<void> {
    const boss = this.#boss;
    if (!boss) throw new Error('recording jobs were not started');
    await this.db.transaction().execute(async (trx) => {
      const created = await trx
        .insertInto('call_recordings')
        .values({ call_report_id: call.id, company_id: call.company_id, status: 'pending' })
        .onConflict((oc) => oc.column('call_report_id').doNothing())
        .returning('call_report_id')
        .executeTakeFirst();
      if (!created) return;
      // The job is written in the row's transaction: never a row without its job, nor the reverse.
      await boss.send(MERGE_QUEUE, { callReportId: call.id } satisfies JobData, {
        startAfter: this.settings.settleSeconds,
        db: {
          executeSql: async (text, values) => ({
            rows: (await trx.executeQuery(CompiledQuery.raw(text, values))).rows as unknown[],
          }),
        },
      });
    });
  }

  /** Merges waiting or running, all companies: `/metrics`. */
  async pendingCount(): Promise<number> {
    const { pending } = await this.db
      .selectFrom('call_recordings')
      .select((eb) => eb.fn.countAll<number>().as('pending'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    return Number(pending);
  }

  /** One attempt: the row counts it; a thrown error is pg-boss's to retry. */
  async #merge({ callReportId }: JobData): Promise<void> {
    const call = await this.db
      .updateTable('call_recordings')
      .set((eb) => ({ attempts: eb('attempts', '+', 1), updated_at: new Date() }))
      .from('call_reports')
      .whereRef('call_reports.id', '=', 'call_recordings.call_report_id')
      .where('call_recordings.call_report_id', '=', callReportId)
      .where('call_recordings.status', '=', 'pending')
      .returning(['call_reports.call_id', 'call_reports.company_id'])
      .executeTakeFirst();
    // Deleted with its company, or already done by an attempt pg-boss thought lost.
    if (!call) return;
    const fileName = `${call.company_id}-${call.call_id}.mp4`;
    // Written under another name and renamed when whole: a half-written film is never served.
    const partial = join(this.folder, `${call.company_id}-${call.call_id}.merging.mp4`);
    try {
      const files = existsSync(this.folder) ? await readdir(this.folder) : [];
      const participants = callRecordingParts(files, call.call_id).map((names) =>
        names.map((name) => join(this.folder, name)),
      );
      if (participants.length === 0) {
        await this.#finish(callReportId, { status: 'empty' });
        this.log.info({ callId: call.call_id }, 'call recording: no media was recorded');
        return;
      }
      const { durationSeconds } = await this.settings.merge({ participants, output: partial });
      const file = join(this.folder, fileName);
      await rename(partial, file);
      const { size } = await stat(file);
      await this.#finish(callReportId, {
        status: 'ready',
        file_name: fileName,
        size_bytes: size,
        duration_ms: Math.round(durationSeconds * 1000),
      });
      this.log.info({ callId: call.call_id, durationSeconds }, 'call recording merged');
    } catch (error) {
      await rm(partial, { force: true });
      const message = error instanceof Error ? error.message : String(error);
      await this.db
        .updateTable('call_recordings')
        .set({ last_error: message.slice(0, 2000), updated_at: new Date() })
        .where('call_report_id', '=', callReportId)
        .execute();
      this.log.warn({ err: error, callId: call.call_id }, 'call recording merge failed');
      throw error;
    }
  }

  async #finish(
    callReportId: number,
    result:
      | { status: 'empty' }
      | { status: 'ready'; file_name: string; size_bytes: number; duration_ms: number },
  ): Promise<void> {
    await this.db
      .updateTable('call_recordings')
      .set({ ...result, last_error: null, updated_at: new Date() })
      .where('call_report_id', '=', callReportId)
      .execute();
  }

  /** The last attempt failed (or never finished): the reports show it with why. */
  async #markFailed({ callReportId }: JobData, output: unknown): Promise<void> {
    const message = failureMessage(output);
    await this.db
      .updateTable('call_recordings')
      .set((eb) => ({
        status: 'failed',
        last_error: message ?? eb.fn.coalesce('last_error', eb.val('The merge did not finish.')),
        updated_at: new Date(),
      }))
      .where('call_report_id', '=', callReportId)
      .where('status', '=', 'pending')
      .execute();
    this.log.error({ callReportId, error: message }, 'call recording failed after its retries');
  }
}
