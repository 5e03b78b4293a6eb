import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { testDatabaseUrl, type TestApp } from './helper.ts';

const repoRoot = resolve(import.meta.dirname, '../../..');

/**
 * An operator's command (`npm run <name>`: infra/src/cli/<name>.ts) as the operator runs it, on
 * the schema and data folder of `t`; `env` adds to its environment. Its exit status and output.
 */
export function runOperatorCommand(
  t: TestApp,
  name: string,
  args: readonly string[],
  env: Record<string, string> = {},
) {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', resolve(repoRoot, `infra/src/cli/${name}.ts`), ...args],
    {
      cwd: repoRoot,
      encoding: 'utf8',
      env: {
        ...process.env,
        DATABASE_URL: testDatabaseUrl,
        DATABASE_SCHEMA: t.config.databaseSchema,
        FRONTDESK_DATA_DIR: t.config.dataDir,
        ...env,
      },
      timeout: 60_000,
    },
  );
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}
