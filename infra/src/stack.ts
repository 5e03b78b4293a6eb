import { join } from 'node:path';
import { loadOrCreateSecrets, prepareDataDir } from './data-dir.ts';
import { startEjabberd } from './ejabberd.ts';
import { startJanus } from './janus.ts';
import { startLocalPostgres } from './postgres.ts';
import { startProcess } from './process.ts';

export type StackOptions = {
  repoRoot: string;
  dataDir: string;
  /** Where the API listens for browsers (the only port a browser needs). */
  host: string;
  port: number;
  /** An existing PostgreSQL server; without it the project's own cluster runs in the data folder. */
  databaseUrl?: string;
  /** Work inside this schema of the database (tests); default the public schema. */
  databaseSchema?: string;
  xmppDomain: string;
  /** Interfaces Janus may gather ICE candidates on (e.g. `veth0` inside the test namespace). */
  janusIceEnforceList?: string;
  /** The public address Janus announces when behind NAT (`nat_1_1_mapping`). */
  janusPublicIp?: string;
  /** UDP ports Janus uses for media, one per peer connection. */
  janusRtpPorts: readonly [number, number];
  seedDemo: boolean;
  logLevel: string;
  log: (line: string) => void;
};

export type RunningStack = {
  url: string;
  databaseUrl: string;
  dataDir: string;
  /** Process ids of the servers, for measurements (CPU, memory). */
  pids: { api: number; janus: number; ejabberd: number };
  stop: () => Promise<void>;
};

/**
 * Starts PostgreSQL (unless given one), ejabberd, Janus and the API, each as a child process
 * bound to loopback, and resolves once the API reports every dependency up. `stop` ends them
 * in reverse order and is idempotent. A failure part-way stops what had started.
 */
export async function startStack(options: StackOptions): Promise<RunningStack> {
  const dir = prepareDataDir(options.dataDir);
  const secrets = loadOrCreateSecrets(dir);
  const started: { stop: () => Promise<void> }[] = [];
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      for (const service of started.reverse()) await service.stop().catch(() => undefined);
    })());

  try {
    const database = options.databaseUrl
      ? { url: options.databaseUrl }
      : await startLocalPostgres(dir).then((pg) => (started.push(pg), pg));

    const [ejabberd, janus] = await Promise.all([
      startEjabberd({
        dir: dir.ejabberd,
        domain: options.xmppDomain,
        jwtSecret: Buffer.from(secrets.xmppJwtSecret, 'base64url'),
        turnSecret: secrets.turnSecret,
      }).then((s) => (started.push(s), s)),
      startJanus({
        dir: dir.janus,
        tokenSecret: secrets.janusTokenSecret,
        adminKey: secrets.janusAdminKey,
        adminSecret: secrets.janusAdminSecret,
        recordingsDir: dir.recordings,
        rtpPortRange: options.janusRtpPorts,
        ...(options.janusIceEnforceList ? { iceEnforceList: options.janusIceEnforceList } : {}),
        ...(options.janusPublicIp ? { natPublicIp: options.janusPublicIp } : {}),
      }).then((s) => (started.push(s), s)),
    ]);

    const api = await startProcess({
      name: 'api',
      command: process.execPath,
      args: ['--import', 'tsx', join(options.repoRoot, 'apps/api/src/server.ts')],
      cwd: options.repoRoot,
      logFile: join(dir.logs, 'api.log'),
      env: {
        ...process.env,
        HOST: options.host,
        PORT: String(options.port),
        DATABASE_URL: database.url,
        ...(options.databaseSchema ? { DATABASE_SCHEMA: options.databaseSchema } : {}),
        FRONTDESK_DATA_DIR: dir.root,
        XMPP_DOMAIN: ejabberd.domain,
        XMPP_WEBSOCKET_UPSTREAM: ejabberd.wsUrl,
        XMPP_ADMIN_URL: ejabberd.adminApiUrl,
        JANUS_WEBSOCKET_UPSTREAM: janus.wsUrl,
        JANUS_HTTP_URL: janus.httpUrl,
        API_TOKEN_SECRET: secrets.apiTokenSecret,
        XMPP_JWT_SECRET: secrets.xmppJwtSecret,
        JANUS_TOKEN_SECRET: secrets.janusTokenSecret,
        JANUS_ADMIN_KEY: secrets.janusAdminKey,
        SEED_DEMO: String(options.seedDemo),
        LOG_LEVEL: options.logLevel,
      },
    });
    started.push(api);
    const url = `http://${options.host === '0.0.0.0' ? '127.0.0.1' : options.host}:${options.port}`;
    await api.waitUntilReady(
      async () => (await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) })).ok,
      { timeoutMs: 60_000, intervalMs: 100 },
    );
    return {
      url,
      databaseUrl: database.url,
      dataDir: dir.root,
      pids: { api: api.pid, janus: janus.pid, ejabberd: ejabberd.beamPid },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
