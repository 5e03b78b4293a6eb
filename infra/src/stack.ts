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
  readonly pids: { api: number; janus: number; ejabberd: number };
  /** Stops a server and starts it again on the same ports and state (the fault journeys). */
  restart: (server: 'xmpp' | 'janus') => Promise<void>;
  stop: () => Promise<void>;
};

/** A server that can be stopped and started again in place, as a crash and a restart would. */
class Restartable<T extends { stop(): Promise<void> }> {
  constructor(
    public current: T,
    private readonly startAgain: (previous: T) => Promise<T>,
  ) {}

  async restart(): Promise<void> {
    await this.current.stop();
    this.current = await this.startAgain(this.current);
  }

  stop(): Promise<void> {
    return this.current.stop();
  }
}

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

    const ejabberdOptions = {
      dir: dir.ejabberd,
      domain: options.xmppDomain,
      jwtSecret: Buffer.from(secrets.xmppJwtSecret, 'base64url'),
      turnSecret: secrets.turnSecret,
    };
    const janusOptions = {
      dir: dir.janus,
      tokenSecret: secrets.janusTokenSecret,
      adminKey: secrets.janusAdminKey,
      adminSecret: secrets.janusAdminSecret,
      recordingsDir: dir.recordings,
      rtpPortRange: options.janusRtpPorts,
      ...(options.janusIceEnforceList ? { iceEnforceList: options.janusIceEnforceList } : {}),
      ...(options.janusPublicIp ? { natPublicIp: options.janusPublicIp } : {}),
    };
    const [ejabberd, janus] = await Promise.all([
      startEjabberd(ejabberdOptions).then((first) => {
        const server = new Restartable(first, (previous) =>
          startEjabberd({
            ...ejabberdOptions,
            wsPort: previous.wsPort,
            c2sPort: previous.c2sPort,
            adminApiPort: Number(new URL(previous.adminApiUrl).port),
          }),
        );
        started.push(server);
        return server;
      }),
      startJanus(janusOptions).then((first) => {
        const server = new Restartable(first, (previous) =>
          startJanus({ ...janusOptions, httpPort: previous.httpPort, wsPort: previous.wsPort }),
        );
        started.push(server);
        return server;
      }),
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
        XMPP_DOMAIN: ejabberd.current.domain,
        XMPP_WEBSOCKET_UPSTREAM: ejabberd.current.wsUrl,
        XMPP_ADMIN_URL: ejabberd.current.adminApiUrl,
        JANUS_WEBSOCKET_UPSTREAM: janus.current.wsUrl,
        JANUS_HTTP_URL: janus.current.httpUrl,
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
      get pids() {
        return { api: api.pid, janus: janus.current.pid, ejabberd: ejabberd.current.beamPid };
      },
      restart: (server) => (server === 'xmpp' ? ejabberd : janus).restart(),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
