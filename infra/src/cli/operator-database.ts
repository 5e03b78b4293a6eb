import { z } from 'zod';
import { migrateToLatest, openDatabase } from '@frontdesk/api/operations';
import { readSettings } from '../backup/cli.ts';
import { openLocalDatabase } from '../backup/database.ts';
import { loadOrCreateSecrets, prepareDataDir } from '../data-dir.ts';

/**
 * The database `npm start` uses, for the operator's commands (create-company, create-operator),
 * whether Frontdesk runs or not: `DATABASE_URL`, or the data folder's own cluster, started just
 * for the command when it is stopped. Migrated, since the tables may not exist before the first
 * start. `close` also stops a cluster started for the command, gracefully.
 */
export async function openOperatorDatabase(name: string) {
  const settings = readSettings(name);
  // Tests work in a schema of their own, as the API does with the same variable.
  const schema = z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .optional()
    .parse(process.env.DATABASE_SCHEMA);
  const dataDir = prepareDataDir(settings.dataDir);
  const database = settings.databaseUrl
    ? { url: settings.databaseUrl, release: async () => undefined }
    : await openLocalDatabase(dataDir);
  const db = await openDatabase(database.url, schema);
  const close = async () => {
    await db.destroy();
    await database.release();
  };
  try {
    // The key `npm start` gives the API, whichever database it uses (decision 0033).
    await migrateToLatest(db, { fingerprintKey: loadOrCreateSecrets(dataDir).guestFingerprintKey });
  } catch (error) {
    await close();
    throw error;
  }
  return { db, settings, close };
}
