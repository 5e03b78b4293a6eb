import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { COMPANY_CHANGED_CHANNEL } from '../audit/company-changes.ts';

/** How long the feed waits before listening again after losing its connection. */
const RECONNECT_MS = 1_000;

/**
 * Hears every company change made by any API process on the same database (issue 16: "a change
 * is visible to guests at once, on every API replica"): `changeCompany` notifies at commit, and
 * `onChange` receives the company's id. While the connection is lost notifications are missed,
 * so `onReconnect` runs each time listening resumes (the cache forgets everything then).
 */
export class CompanyChangeFeed {
  private client: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly handlers: { onChange: (companyId: number) => void; onReconnect: () => void },
    private readonly log: FastifyBaseLogger,
    /** How the connection shows in `pg_stat_activity` (the API names its schema there). */
    private readonly applicationName = 'frontdesk-api-company-changes',
  ) {}

  /** Resolves once listening (or after the first failure, which is retried meanwhile). */
  async start(): Promise<void> {
    await this.connect(false);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    await this.client?.end().catch(() => undefined);
  }

  private async connect(reconnecting: boolean): Promise<void> {
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      application_name: this.applicationName,
    });
    this.client = client;
    client.on('notification', ({ payload }) => {
      const id = Number(payload);
      if (Number.isInteger(id)) this.handlers.onChange(id);
    });
    client.on('error', (error) => {
      this.log.warn({ err: error }, 'company change feed: connection lost');
      this.scheduleReconnect(client);
    });
    client.on('end', () => this.scheduleReconnect(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${COMPANY_CHANGED_CHANNEL}`);
      if (reconnecting) this.handlers.onReconnect();
    } catch (error) {
      this.log.warn({ err: error }, 'company change feed: cannot listen yet');
      this.scheduleReconnect(client);
    }
  }

  private scheduleReconnect(client: pg.Client): void {
    if (this.stopped || this.client !== client || this.retry) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (!this.stopped) void this.connect(true);
    }, RECONNECT_MS);
  }
}
