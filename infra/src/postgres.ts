import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { DataDir } from './data-dir.ts';
import type { LogRotation } from './service-log.ts';
import {
  isProcessAlive,
  listProcesses,
  startProcess,
  type ExitInfo,
  type ProcessInfo,
  type SupervisedProcess,
} from './process.ts';

export const LOCAL_DATABASE = 'frontdesk';

export type RunningPostgres = {
  url: string;
  process: SupervisedProcess;
  /** Resolves when the postmaster has exited, also when nobody asked it to. */
  exited: Promise<ExitInfo>;
  stop: () => Promise<void>;
};

/** Whether a process is the postmaster of the cluster in `clusterDir`. */
export function isPostmasterOf(clusterDir: string, proc: ProcessInfo): boolean {
  const flag = proc.args.indexOf('-D');
  return proc.comm === 'postgres' && flag > 0 && proc.args[flag + 1] === clusterDir;
}

/**
 * Removes lock files that name a PID which is not a postgres of this cluster. PostgreSQL itself
 * only asks whether that PID exists, so after a SIGKILL it refuses to start when the PID was
 * reused, or belongs to a zombie that a container's PID 1 never reaps. A live postmaster of
 * this cluster is an error: the caller stops leftovers first.
 */
function removeStaleLocks(dir: DataDir): void {
  const ours = new Set(
    listProcesses()
      .filter((proc) => isPostmasterOf(dir.postgres, proc))
      .map((proc) => proc.pid),
  );
  const locks = [join(dir.postgres, 'postmaster.pid')];
  if (existsSync(dir.postgresSocket)) {
    for (const file of readdirSync(dir.postgresSocket)) {
      if (/^\.s\.PGSQL\.\d+\.lock$/.test(file)) locks.push(join(dir.postgresSocket, file));
    }
  }
  for (const lock of locks) {
    let pid: number;
    try {
      pid = Number.parseInt(readFileSync(lock, 'utf8'), 10);
    } catch {
      continue;
    }
    if (ours.has(pid) && isProcessAlive(pid)) {
      throw new Error(`PostgreSQL already runs in ${dir.postgres} (pid ${pid})`);
    }
    rmSync(lock, { force: true });
  }
}

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0]) throw new Error(`PostgreSQL is not installed (nothing in ${root}).`);
  return join(root, versions[0], 'bin');
}

/** PostgreSQL refuses to run as root: as root we run it as the `postgres` system user. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * Runs the project's own PostgreSQL cluster in the data folder, listening only on a Unix socket
 * there (no TCP port), creating it with initdb on first run and the `frontdesk` database in it.
 */
export async function startLocalPostgres(
  dir: DataDir,
  logRotation?: LogRotation,
): Promise<RunningPostgres> {
  const bin = binDir();
  const user = serverUser();
  if (user) {
    for (const path of [dir.postgres, dir.postgresSocket]) chownSync(path, user.uid, user.gid);
  }
  const asServerUser = { ...(user ?? {}), stdio: 'pipe' as const, encoding: 'utf8' as const };
  if (!existsSync(join(dir.postgres, 'PG_VERSION'))) {
    const init = spawnSync(
      join(bin, 'initdb'),
      ['-D', dir.postgres, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8'],
      asServerUser,
    );
    if (init.status !== 0) throw new Error(`initdb failed:\n${init.stderr}`);
  }
  removeStaleLocks(dir);
  const server = await startProcess({
    name: 'postgres',
    command: join(bin, 'postgres'),
    args: [
      '-D',
      dir.postgres,
      '-c',
      'listen_addresses=',
      '-c',
      `unix_socket_directories=${dir.postgresSocket}`,
    ],
    logFile: join(dir.logs, 'postgres.log'),
    ...(logRotation ? { logRotation } : {}),
    ...(user ?? {}),
  });
  const psql = (sql: string, database = 'postgres') =>
    spawnSync(
      'psql',
      ['-h', dir.postgresSocket, '-U', 'postgres', '-d', database, '-tAc', sql],
      asServerUser,
    );
  try {
    await server.waitUntilReady(async () => psql('select 1').status === 0, {
      timeoutMs: 30_000,
    });
    if (
      psql(`select 1 from pg_database where datname = '${LOCAL_DATABASE}'`).stdout.trim() !== '1'
    ) {
      const created = psql(`create database ${LOCAL_DATABASE}`);
      if (created.status !== 0)
        throw new Error(`could not create the database:\n${created.stderr}`);
    }
  } catch (error) {
    // A restart that fails must not leave a half-started postmaster holding the cluster.
    await server.stop().catch(() => undefined);
    throw error;
  }
  return {
    url: `postgresql://postgres@/${LOCAL_DATABASE}?host=${encodeURIComponent(dir.postgresSocket)}`,
    process: server,
    exited: server.exited,
    stop: () => server.stop(),
  };
}
