import pg from 'pg';
import { startDisposableStack } from '@frontdesk/infra';

/** The whole stack on a fresh schema and a temporary data folder, as the e2e suite runs it. */
export type BenchStack = {
  url: string;
  apiPid: number;
  /** The machine's PostgreSQL and the run's schema in it, for benchmarks that seed rows. */
  databaseUrl: string;
  schema: string;
  /** Stops one server and starts it again in place (the recovery figure's Janus session loss). */
  restart: (server: 'xmpp' | 'janus') => Promise<void>;
  stop: () => Promise<void>;
};

/** A `pg` client connected to `schema` of `databaseUrl`, for benchmarks that write rows there. */
export async function connectToSchema(databaseUrl: string, schema: string): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: databaseUrl,
    options: `-c search_path=${schema}`,
  });
  await client.connect();
  return client;
}

export async function startBenchStack(log: (line: string) => void): Promise<BenchStack> {
  // Per-request logging would be part of what the throughput figures measure.
  const stack = await startDisposableStack({ name: 'bench', logLevel: 'warn', log });
  return {
    url: stack.url,
    apiPid: stack.pids.api,
    databaseUrl: stack.databaseUrl,
    schema: stack.schema,
    restart: stack.restart,
    stop: stack.stop,
  };
}
