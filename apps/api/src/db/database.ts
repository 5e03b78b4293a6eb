import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

/**
 * node-postgres returns int8 (bigint, count(*)) as strings; our counts and ids fit a double. Set
 * on the API's own connections, not in pg's global table: a process that loads this module for
 * something else (the journeys' helpers) keeps pg's defaults on its own clients.
 */
const apiTypeParsers: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Connections the API's pool opens at most (bench/src/api/pg-floor.ts's floor uses as many). */
export const POOL_SIZE = 10;

/**
 * Opens a pool on `url`. With `schema`, every connection works inside that schema (created on
 * demand), which is how test runs share one server without seeing each other's rows.
 * `onIdleClientError` hears of a pooled connection the server closed while it sat idle.
 */
export async function openDatabase(
  url: string,
  schema?: string,
  onIdleClientError: (error: Error) => void = (error) =>
    console.warn(`database: an idle connection was closed (${error.message})`),
): Promise<Kysely<Database>> {
  if (schema) {
    const bootstrap = new pg.Client({ connectionString: url });
    await bootstrap.connect();
    try {
      await bootstrap.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    } finally {
      await bootstrap.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: POOL_SIZE,
    types: apiTypeParsers,
    // Names the API's connections in pg_stat_activity, each test run's apart.
    application_name: schema ? `frontdesk-api-${schema}` : 'frontdesk-api',
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // A PostgreSQL restart ends every idle connection; the pool opens new ones on the next query.
  // Unheard, the pool's 'error' event would end the whole API instead.
  pool.on('error', onIdleClientError);
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/** A cheap round trip used by the health check. */
export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
