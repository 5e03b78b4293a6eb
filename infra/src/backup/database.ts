// The database half of a backup: pg_dump of one consistent snapshot (with the row counts of that
// same snapshot for the manifest), and pg_restore into an empty database.
import { spawn } from 'node:child_process';
import pg from 'pg';
import type { DataDir } from '../data-dir.ts';
import { LOCAL_DATABASE, startLocalPostgres } from '../postgres.ts';
import { BackupError } from './manifest.ts';

/**
 * The connection URL of the project's own cluster, as `startLocalPostgres` hands it out; built
 * here too because a backup must reach a cluster that `npm start` already runs.
 */
export const localDatabaseUrl = (dir: DataDir) =>
  `postgresql://postgres@/${LOCAL_DATABASE}?host=${encodeURIComponent(dir.postgresSocket)}`;

/** The database to work on, and how to let go of it (stops a cluster started just for this). */
export type Database = { url: string; release: () => Promise<void> };

const errorCode = (error: unknown) =>
  error instanceof Error && 'code' in error ? String(error.code) : undefined;

/**
 * The project's own cluster: the running one when `npm start` has it up (its socket answers),
 * else started for as long as the caller needs it.
 */
export async function openLocalDatabase(dir: DataDir): Promise<Database> {
  const url = localDatabaseUrl(dir);
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    return { url, release: async () => undefined };
  } catch (error) {
    // No socket file or nobody behind it: the cluster is not running. Anything else (a refused
    // login, a missing database) is a real problem and is reported as it is.
    if (!['ENOENT', 'ECONNREFUSED'].includes(errorCode(error) ?? '')) throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
  const running = await startLocalPostgres(dir);
  return { url: running.url, release: running.stop };
}

/** Runs a PostgreSQL client program; rejects with its error output when it fails. */
function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error) =>
      reject(
        errorCode(error) === 'ENOENT'
          ? new BackupError(
              `${command} is not installed (Debian: apt-get install postgresql-client).`,
            )
          : error,
      ),
    );
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new BackupError(`${command} failed (exit ${code}):\n${stderr.trim()}`)),
    );
  });
}

/** Exact row counts of every table outside PostgreSQL's own schemas, keyed `schema.table`. */
async function countRows(client: pg.Client): Promise<Record<string, number>> {
  const { rows: tables } = await client.query<{ schema: string; name: string }>(
    `select table_schema as schema, table_name as name from information_schema.tables
      where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')
      order by 1, 2`,
  );
  const counts: Record<string, number> = {};
  for (const { schema, name } of tables) {
    const table = `${client.escapeIdentifier(schema)}.${client.escapeIdentifier(name)}`;
    const { rows } = await client.query<{ n: string }>(`select count(*) as n from ${table}`);
    counts[`${schema}.${name}`] = Number(rows[0]?.n ?? 0);
  }
  return counts;
}

/**
 * Dumps the database at `url` to `file` (pg_dump's custom format, compressed) while the API may
 * be writing to it: the dump and the row counts come from one exported snapshot, so they agree.
 */
export async function dumpDatabase(
  url: string,
  file: string,
): Promise<{ serverVersion: string; rows: Record<string, number> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read, read only');
    const { rows } = await client.query<{ snapshot: string; version: string }>(
      `select pg_export_snapshot() as snapshot, current_setting('server_version') as version`,
    );
    const snapshot = rows[0];
    if (!snapshot) throw new Error('PostgreSQL exported no snapshot');
    const counts = await countRows(client);
    // Owners and grants name roles of this server; a restore elsewhere has other roles.
    await run('pg_dump', [
      `--dbname=${url}`,
      `--snapshot=${snapshot.snapshot}`,
      '--format=custom',
      '--no-owner',
      '--no-privileges',
      `--file=${file}`,
    ]);
    return { serverVersion: snapshot.version, rows: counts };
  } finally {
    await client.query('rollback').catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}

/** Refuses a database that already has tables: a restore never merges into existing data. */
export async function assertDatabaseEmpty(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = Object.keys(await countRows(client));
    if (tables.length > 0) {
      throw new BackupError(
        `The database at DATABASE_URL is not empty (${tables.length} tables, e.g. ${tables[0]}); restore into an empty database.`,
      );
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Loads a dump into the (empty) database at `url` in one transaction, then checks every table's
 * row count against the manifest's, so a restore that lost rows fails instead of looking done.
 */
export async function loadDatabase(
  url: string,
  file: string,
  expectedRows: Record<string, number>,
): Promise<void> {
  await run('pg_restore', [
    `--dbname=${url}`,
    '--no-owner',
    '--no-privileges',
    '--exit-on-error',
    '--single-transaction',
    file,
  ]);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = await countRows(client);
    for (const [table, expected] of Object.entries(expectedRows)) {
      if (rows[table] !== expected) {
        throw new BackupError(
          `After loading, ${table} has ${rows[table] ?? 'no'} rows where the backup had ${expected}.`,
        );
      }
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}
