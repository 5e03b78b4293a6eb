import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';

/** Seconds of silence on the lock connection before either side probes whether the other is there. */
const KEEPALIVE_IDLE_S = 10;

/** How long a lock query may take before the connection is taken for lost. */
const LOCK_QUERY_TIMEOUT_MS = 5000;

/**
 * PostgreSQL advisory locks held on a connection of this process's own (decision 0038). A lock,
 * once taken, is kept until the process stops or the connection is lost — PostgreSQL releases it
 * with the session — so one process holds it while it lives and another takes it over after.
 * Lock names are scoped by the database schema: API instances on other schemas of one server
 * (test runs, a second tenant) lock apart.
 */
export class ClusterLocks {
  private client: pg.Client | undefined;
  private readonly held = new Set<string>();
  private closed = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly scope: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Whether this process holds `name`'s lock, taking it when it is free. */
  async hold(name: string): Promise<boolean> {
    // A tick still under way when the process began to stop takes nothing again.
    if (this.closed) return false;
    try {
      const client = await this.connection();
      // Held: the round trip only proves the session (and so the lock) is still there.
      if (this.held.has(name)) {
        await client.query('select 1');
        return true;
      }
      const { rows } = await client.query<{ taken: boolean }>(
        'select pg_try_advisory_lock(hashtextextended($1, 0)) as taken',
        [`${this.scope}:${name}`],
      );
      if (rows[0]?.taken) this.held.add(name);
      return rows[0]?.taken === true;
    } catch (error) {
      this.log.warn({ err: error, lock: name }, 'cluster lock: connection lost');
      this.drop();
      return false;
    }
  }

  /** Releases every lock (by ending the session). */
  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.drop();
    await client?.end().catch(() => undefined);
  }

  private async connection(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      application_name: `frontdesk-api-cluster-locks-${this.scope}`,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_IDLE_S * 1000,
      // Node sets only the idle time of the client's keepalive, not its probes: a query in flight
      // on a dead path would wait out TCP's retransmissions (~15 min) with every tick behind it.
      query_timeout: LOCK_QUERY_TIMEOUT_MS,
    });
    client.on('error', (error) => {
      this.log.warn({ err: error }, 'cluster lock: connection lost');
      if (this.client === client) this.drop();
    });
    this.client = client;
    try {
      await client.connect();
      // PostgreSQL's side too: a process cut off from the server loses its locks within about
      // half a minute, not the two hours of the system's default keepalive.
      await client.query(
        `set tcp_keepalives_idle = ${KEEPALIVE_IDLE_S}; set tcp_keepalives_interval = 5; set tcp_keepalives_count = 3`,
      );
    } catch (error) {
      this.drop();
      throw error;
    }
    return client;
  }

  /** Forgets the connection and with it the locks: PostgreSQL released them with the session. */
  private drop(): void {
    const client = this.client;
    this.client = undefined;
    this.held.clear();
    client?.end().catch(() => undefined);
  }
}

/**
 * Work one API process does for all, every `intervalMs` (decision 0038): each replica ticks, and
 * only the one holding the task's lock runs it, so it runs once a period whatever the count of
 * replicas, and goes on at another's next tick when its holder stops. A run that outlasts the
 * interval (a slow chat server) is not joined by the next tick's.
 */
export class ClusterTask {
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly locks: ClusterLocks,
    readonly name: string,
    private readonly intervalMs: number,
    private readonly run: () => Promise<unknown>,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Runs the task if this process holds its lock; answers whether it ran. */
  async tick(): Promise<boolean> {
    if (this.running) return false;
    this.running = true;
    try {
      if (!(await this.locks.hold(this.name))) return false;
      await this.run().catch((error: unknown) =>
        this.log.warn(
          { err: error, task: this.name },
          'cluster task failed; the next tick retries',
        ),
      );
      return true;
    } finally {
      this.running = false;
    }
  }

  /** Ticks every interval until {@link stop}. */
  start(): void {
    this.timer ??= setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** The API's {@link ClusterTask}s, over one connection of locks; `close` releases them. */
export class ClusterTasks {
  private readonly locks: ClusterLocks;
  private readonly tasks = new Map<string, ClusterTask>();

  constructor(
    databaseUrl: string,
    scope: string,
    private readonly log: FastifyBaseLogger,
  ) {
    this.locks = new ClusterLocks(databaseUrl, scope, log);
  }

  add(name: string, intervalMs: number, run: () => Promise<unknown>): void {
    this.tasks.set(name, new ClusterTask(this.locks, name, intervalMs, run, this.log));
  }

  /** The task named `name`, to tick by hand (tests, the command line). */
  task(name: string): ClusterTask {
    const task = this.tasks.get(name);
    if (!task) throw new Error(`no cluster task ${name}`);
    return task;
  }

  start(): void {
    for (const task of this.tasks.values()) task.start();
  }

  /** Stops ticking and lets another process take the tasks over. */
  async close(): Promise<void> {
    for (const task of this.tasks.values()) task.stop();
    await this.locks.close();
  }
}
