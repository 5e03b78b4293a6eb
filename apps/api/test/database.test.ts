import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, pingDatabase } from '../src/db/database.ts';
import { testDatabaseUrl } from './helper.ts';

describe('the database pool', () => {
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const closed: Error[] = [];
  const opened = openDatabase(testDatabaseUrl, schema, (error) => closed.push(error));

  afterAll(async () => {
    const db = await opened;
    await sql.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).execute(db);
    await db.destroy();
  });

  it('outlives the server closing its idle connections, as a PostgreSQL restart does', async () => {
    const db = await opened;
    await pingDatabase(db);
    // What a restart does to each connection, done to this pool's alone.
    const admin = new pg.Client({ connectionString: testDatabaseUrl });
    await admin.connect();
    const { rowCount } = await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
      [`frontdesk-api-${schema}`],
    );
    await admin.end();
    expect(rowCount).toBeGreaterThan(0);
    await expect.poll(() => closed.length, { timeout: 5000 }).toBeGreaterThan(0);
    await sleep(50);
    await expect(pingDatabase(db)).resolves.toBeUndefined();
  });

  it("reads int8 as a number on its own connections, and leaves pg's defaults to other clients", async () => {
    const db = await opened;
    const { rows } = await sql<{
      n: unknown;
    }>`select count(*) as n from (values (1), (2)) v`.execute(db);
    expect(rows[0]?.n).toBe(2);
    // Loading the API's database module must not change what another client of the process reads.
    const other = new pg.Client({ connectionString: testDatabaseUrl });
    await other.connect();
    try {
      expect((await other.query<{ n: unknown }>('select 2::int8 as n')).rows[0]?.n).toBe('2');
    } finally {
      await other.end();
    }
  });
});
