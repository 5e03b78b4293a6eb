import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';

const secretsSchema = z.object({
  apiTokenSecret: z.string().min(32),
  xmppJwtSecret: z.string().min(32),
  janusTokenSecret: z.string().min(16),
  janusAdminKey: z.string().min(16),
  janusAdminSecret: z.string().min(16),
  turnSecret: z.string().min(16),
});
export type Secrets = z.infer<typeof secretsSchema>;

/** The folders of one installation's state; everything Frontdesk writes lives below `root`. */
export type DataDir = {
  root: string;
  postgres: string;
  postgresSocket: string;
  ejabberd: string;
  janus: string;
  uploads: string;
  recordings: string;
  logs: string;
};

/** Resolves the data folder (`FRONTDESK_DATA_DIR`, default `./data`) and creates its layout. */
export function prepareDataDir(root: string): DataDir {
  const abs = resolve(root);
  const dir: DataDir = {
    root: abs,
    postgres: join(abs, 'postgres'),
    postgresSocket: join(abs, 'postgres-socket'),
    ejabberd: join(abs, 'ejabberd'),
    janus: join(abs, 'janus'),
    uploads: join(abs, 'uploads'),
    recordings: join(abs, 'recordings'),
    logs: join(abs, 'logs'),
  };
  for (const path of Object.values(dir)) mkdirSync(path, { recursive: true });
  // The servers run as their own system users (postgres, ejabberd) and must traverse the root;
  // 0711 lets them through without letting anyone list it (a mkdtemp folder starts at 0700).
  chmodSync(abs, 0o711);
  // SECURITY: what guests sent and what the services log is the owner's alone; the servers that
  // run as users of their own are handed their log files open, and never write here themselves.
  for (const path of [dir.uploads, dir.logs]) chmodSync(path, 0o700);
  return dir;
}

const secret = (bytes: number) => randomBytes(bytes).toString('base64url');

/**
 * Reads the installation's secrets, generating them on first run. SECURITY: the file is
 * readable by its owner only and lives in the git-ignored data folder, never in the repository.
 */
export function loadOrCreateSecrets(dir: DataDir): Secrets {
  const file = join(dir.root, 'secrets.json');
  if (existsSync(file)) return secretsSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  const secrets: Secrets = {
    apiTokenSecret: secret(32),
    xmppJwtSecret: secret(32),
    janusTokenSecret: secret(24),
    janusAdminKey: secret(24),
    janusAdminSecret: secret(24),
    turnSecret: secret(24),
  };
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secrets;
}
