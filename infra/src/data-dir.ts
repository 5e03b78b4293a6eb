import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { z } from 'zod';
import { COTURN_USER } from './coturn.ts';
import { JANUS_USER } from './janus.ts';

const secretsSchema = z.object({
  apiTokenSecret: z.string().min(32),
  xmppJwtSecret: z.string().min(32),
  janusTokenSecret: z.string().min(16),
  janusAdminKey: z.string().min(16),
  janusAdminSecret: z.string().min(16),
  turnSecret: z.string().min(16),
  guestFingerprintKey: z.string().min(32),
});
export type Secrets = z.infer<typeof secretsSchema>;

/** The folders of one installation's state; everything Frontdesk writes lives below `root`. */
export type DataDir = {
  root: string;
  postgres: string;
  postgresSocket: string;
  ejabberd: string;
  janus: string;
  coturn: string;
  uploads: string;
  recordings: string;
  logs: string;
};

/**
 * Where clones that the servers cannot enter keep their data: not below `/var`, where Janus may
 * not write recordings (`JANUS_PROTECTED_FOLDERS`).
 */
export const MACHINE_DATA_ROOT = '/srv/frontdesk';

/** The users the servers run as when we are root; each must walk down to the data folder. */
const SERVER_USERS = ['postgres', 'ejabberd', JANUS_USER, COTURN_USER] as const;
/** Stands for a server user not created yet: it will have no more rights than anybody. */
const NOBODY = { uid: 65534, gid: 65534 };

/** A system user's uid and gid from /etc/passwd, or undefined when there is no such user. */
export function passwdEntry(name: string): { uid: number; gid: number } | undefined {
  const fields = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((line) => line.split(':'))
    .find((entry) => entry[0] === name && entry.length >= 7);
  return fields ? { uid: Number(fields[2]), gid: Number(fields[3]) } : undefined;
}

/** The data folder `npm start` uses without `FRONTDESK_DATA_DIR`, and why when it is not `./data`. */
export type DefaultDataDir = { path: string; reason?: string };

/**
 * The clone's `data/`, unless a server user cannot reach it (a clone in a home folder closed to
 * others, such as `/root`): then a folder of this clone's own under {@link MACHINE_DATA_ROOT},
 * named after the clone's path so that clones never share one. Only root runs the servers as
 * other users, so for anybody else it is always `./data`.
 */
export function defaultDataDir(repoRoot: string): DefaultDataDir {
  const clone = resolve(repoRoot);
  const inClone = join(clone, 'data');
  if (process.getuid?.() !== 0) return { path: inClone };
  for (const name of SERVER_USERS) {
    const user = passwdEntry(name) ?? NOBODY;
    // Asked as that user, as the server will be (uid and gid only, like startProcess): this
    // follows ACLs and group rights that reading the modes would miss.
    if (spawnSync('test', ['-x', clone], user).status === 0) continue;
    const hash = createHash('sha256').update(clone).digest('hex').slice(0, 12);
    const label = basename(clone).replace(/[^A-Za-z0-9._-]/g, '_');
    return {
      path: join(MACHINE_DATA_ROOT, `${label}-${hash}`),
      reason: `the ${name} user cannot enter ${clone}`,
    };
  }
  return { path: inClone };
}

/**
 * Resolves the data folder (`FRONTDESK_DATA_DIR`, default {@link defaultDataDir}) and creates
 * its layout.
 */
export function prepareDataDir(root: string): DataDir {
  const abs = resolve(root);
  const dir: DataDir = {
    root: abs,
    postgres: join(abs, 'postgres'),
    postgresSocket: join(abs, 'postgres-socket'),
    ejabberd: join(abs, 'ejabberd'),
    janus: join(abs, 'janus'),
    coturn: join(abs, 'coturn'),
    uploads: join(abs, 'uploads'),
    recordings: join(abs, 'recordings'),
    logs: join(abs, 'logs'),
  };
  for (const path of Object.values(dir)) mkdirSync(path, { recursive: true });
  // The servers run as their own system users (postgres, ejabberd) and must traverse the root;
  // 0711 lets them through without letting anyone list it (a mkdtemp folder starts at 0700).
  chmodSync(abs, 0o711);
  // SECURITY: what guests sent and what the services log is the owner's alone; the servers that
  // run as users of their own send their output to the supervisor, which writes the log files,
  // and never write here themselves.
  for (const path of [dir.uploads, dir.logs]) chmodSync(path, 0o700);
  return dir;
}

const secret = (bytes: number) => randomBytes(bytes).toString('base64url');

/**
 * Reads secrets made elsewhere and copied here (a machine of a cluster), never adding to them: a
 * secret made on this machine would be one no other machine has. Names what the file lacks.
 */
export function readCopiedSecrets(file: string): Secrets {
  const parsed = secretsSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (parsed.success) return parsed.data;
  const wrong = [...new Set(parsed.error.issues.map((issue) => String(issue.path[0])))];
  throw new Error(
    `${file} lacks or has unusable secrets this version uses (${wrong.join(', ')}): make them once where the cluster's secrets were made (scripts/cluster.mjs --make-secrets) and copy the file to every machine`,
  );
}

/**
 * Reads the installation's secrets, generating them on first run, and any a newer version added
 * since (the others kept as they are). SECURITY: the file is readable by its owner only and
 * lives in the git-ignored data folder, never in the repository.
 */
export function loadOrCreateSecrets(dir: DataDir): Secrets {
  const file = join(dir.root, 'secrets.json');
  const stored = existsSync(file)
    ? secretsSchema.partial().parse(JSON.parse(readFileSync(file, 'utf8')))
    : undefined;
  const fresh: Secrets = {
    apiTokenSecret: secret(32),
    xmppJwtSecret: secret(32),
    janusTokenSecret: secret(24),
    janusAdminKey: secret(24),
    janusAdminSecret: secret(24),
    turnSecret: secret(24),
    guestFingerprintKey: secret(32),
  };
  const secrets: Secrets = { ...fresh, ...stored };
  if (stored && Object.keys(fresh).every((name) => name in stored)) return secrets;
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secrets;
}
