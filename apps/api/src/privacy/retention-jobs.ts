import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import PgBoss from 'pg-boss';
import type { Database } from '../db/schema.ts';
import { apiJobSchema } from '../recordings/recording-jobs.ts';
import { runRetention, type InstanceRetention, type RetentionPlaces } from './retention.ts';

/** The queue of nightly retention runs, beside the recording merges' (decision 0031). */
export const RETENTION_QUEUE = 'retention';
/** Every night at 03:00 UTC, when the fewest calls are made on most instances. */
export const RETENTION_CRON = '0 3 * * *';

/** When a stopping API gives up waiting for a running retention run (it is retried later). */
const STOP_TIMEOUT_MS = 8000;

/**
 * The nightly retention run as a durable pg-boss job in the merges' job schema (decision 0020):
 * pg-boss's scheduler puts one job on the queue per night however many API processes run, one
 * process fetches it, and a run that failed or was cut off by a restart is tried again.
 */
export class RetentionJobs {
  #boss: PgBoss | undefined;

  constructor(
    private readonly databaseUrl: string,
    /** `DATABASE_SCHEMA`, the API's connections' schema when set; else the server's default. */
    private readonly databaseSchema: string | undefined,
    private readonly db: Kysely<Database>,
    private readonly places: RetentionPlaces,
    private readonly instance: InstanceRetention,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Joins the merges' job schema, (re)schedules the nightly run and starts its worker. */
  async start(): Promise<void> {
    const schema = await apiJobSchema(this.db, this.databaseSchema);
    const boss = new PgBoss({
      connectionString: this.databaseUrl,
      schema,
      application_name: `frontdesk-retention-${schema}`,
      max: 2,
      // The cron schedule is why this queue has its own pg-boss: the merges' runs without one.
      schedule: true,
    });
    boss.on('error', (error) => this.log.error({ err: error }, 'retention jobs: queue error'));
    await boss.start();
    this.#boss = boss;
    const queue = {
      name: RETENTION_QUEUE,
      // A run is idempotent: a failed one is tried twice more, ten minutes apart.
      retryLimit: 2,
      retryDelay: 600,
      // A first run over years of data may take long on a busy two-core machine.
      expireInSeconds: 4 * 60 * 60,
    };
    await boss.createQueue(RETENTION_QUEUE, queue);
    await boss.updateQueue(RETENTION_QUEUE, queue);
    await boss.schedule(RETENTION_QUEUE, RETENTION_CRON, {}, { tz: 'UTC' });
    await boss.work(RETENTION_QUEUE, { pollingIntervalSeconds: 30, batchSize: 1 }, async () => {
      const now = new Date();
      await runRetention(this.db, this.places, this.instance, now);
      this.log.info({ runAt: now.toISOString() }, 'retention run done');
    });
  }

  async stop(): Promise<void> {
    await this.#boss?.stop({ graceful: true, wait: true, timeout: STOP_TIMEOUT_MS });
  }
}
