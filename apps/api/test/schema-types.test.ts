import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSchemaTypes, SCHEMA_TYPES_FILE } from '../src/db/codegen.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import type { Database } from '../src/db/schema.ts';
import { testDatabaseUrl } from './helper.ts';

/**
 * `url` naming database `name` instead. Not through `URL`, which refuses libpq's empty host (the
 * Unix socket of the default test URL).
 */
function withDatabase(url: string, name: string): string {
  const renamed = url.replace(/^([a-z]+:\/\/[^/?]*)\/[^?]*/, `$1/${name}`);
  // Without a database in the URL the server's default one would be migrated.
  if (!renamed.includes(`/${name}`)) throw new Error('the test database URL names no database');
  return renamed;
}

// Decision 0014: the table types are generated from the migrated database. A database of its own,
// not a schema of the shared one: the migrations run into `public` as in production, and the
// introspection never meets the schemas other test files create and drop meanwhile.
describe('schema.generated.ts', () => {
  const name = `frontdesk_dbtypes_${randomBytes(6).toString('hex')}`;
  const url = withDatabase(testDatabaseUrl, name);
  let server: Kysely<Database> | undefined;

  beforeAll(async () => {
    server = await openDatabase(testDatabaseUrl);
    await sql`create database ${sql.id(name)}`.execute(server);
    const db = await openDatabase(url);
    try {
      // An empty database: there is no fingerprint for 0030 to hash, so any key does.
      await migrateToLatest(db, { fingerprintKey: randomBytes(32).toString('base64url') });
    } finally {
      await db.destroy();
    }
  });
  afterAll(async () => {
    if (!server) return;
    await sql`drop database if exists ${sql.id(name)}`.execute(server);
    await server.destroy();
  });

  it('matches what the migrations make', async () => {
    await expect(await generateSchemaTypes(url)).toMatchFileSnapshot(
      SCHEMA_TYPES_FILE,
      'run `npm run db:types -w apps/api`',
    );
  });
});
