// What `npm run backup` and `npm run restore` share: the settings `npm start` reads, and one way
// to end on a failure.
import { resolve } from 'node:path';
import { z } from 'zod';
import { defaultDataDir } from '../data-dir.ts';
import { BackupError } from './manifest.ts';

const repoRoot = resolve(import.meta.dirname, '../../..');

/** The same data folder and database `npm start` uses, so both commands act on that one. */
export function readSettings(name: string): { dataDir: string; databaseUrl?: string } {
  const env = z
    .object({
      DATABASE_URL: z.string().min(1).optional(),
      FRONTDESK_DATA_DIR: z.string().min(1).optional(),
    })
    .safeParse(process.env);
  if (!env.success) fail(name, `invalid environment: ${env.error.issues[0]?.message ?? ''}`);
  return {
    dataDir: env.data.FRONTDESK_DATA_DIR ?? defaultDataDir(repoRoot).path,
    ...(env.data.DATABASE_URL ? { databaseUrl: env.data.DATABASE_URL } : {}),
  };
}

/**
 * A path the user typed, relative to the folder they ran npm in: `npm run` moves to the
 * repository's root and keeps the original folder in INIT_CWD.
 */
export const userPath = (path: string) => resolve(process.env.INIT_CWD ?? process.cwd(), path);

export function fail(name: string, message: string, status = 1): never {
  console.error(`[${name}] ${message}`);
  process.exit(status);
}

/** Expected failures print their message alone; anything else says it was unexpected. */
export function failWith(name: string, error: unknown): never {
  if (error instanceof BackupError) fail(name, error.message);
  fail(name, `failed: ${error instanceof Error ? error.message : String(error)}`);
}
