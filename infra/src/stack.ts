import { join } from 'node:path';
import { loadOrCreateSecrets, prepareDataDir } from './data-dir.ts';
import { isEjabberdOf, startEjabberd } from './ejabberd.ts';
import { isJanusOf, startJanus } from './janus.ts';
import { isPostmasterOf, startLocalPostgres } from './postgres.ts';
import { processEnvironment, startProcess, type WaitOptions } from './process.ts';
import {
  claimDataDir,
  DEFAULT_RESTART_POLICY,
  stopLeftovers,
  Supervised,
  type Leftover,
  type RestartPolicy,
  type Service,
  type SupervisedServer,
} from './supervise.ts';

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
  /** How soon a server that died is started again; default {@link DEFAULT_RESTART_POLICY}. */
  restartPolicy?: Partial<RestartPolicy>;
};

/** The servers of a stack, as the supervisor names them. */
export type ServerName = 'database' | 'xmpp' | 'janus' | 'api';

export type RunningStack = {
  url: string;
  databaseUrl: string;
  dataDir: string;
  /** Process ids of the servers, for measurements (CPU, memory); `database` only for our own. */
  readonly pids: { api: number; janus: number; ejabberd: number; database?: number };
  /** Whether each server is up as the supervisor sees it, and how often it was restarted. */
  readonly servers: Partial<Record<ServerName, { up: boolean; restarts: number }>>;
  /** Stops a server and starts it again on the same ports and state (the fault journeys). */
  restart: (server: ServerName) => Promise<void>;
  stop: () => Promise<void>;
};

/** The servers a supervisor of `dir` starts, recognised when their supervisor is gone. */
export function leftoversOf(dir: ReturnType<typeof prepareDataDir>): Leftover[] {
  const apiEntry = /\/apps\/api\/src\/server\.ts$/;
  return [
    {
      name: 'the API',
      matches: (p) =>
        p.comm === 'node' &&
        p.args.some((a) => apiEntry.test(a)) &&
        processEnvironment(p.pid, 'FRONTDESK_DATA_DIR') === dir.root,
    },
    // SIGINT is PostgreSQL's fast shutdown: it does not wait for clients to leave.
    { name: 'PostgreSQL', matches: (p) => isPostmasterOf(dir.postgres, p), signal: 'SIGINT' },
    { name: 'ejabberd', matches: (p) => isEjabberdOf(dir.ejabberd, p) },
    { name: 'Janus', matches: (p) => isJanusOf(dir.janus, p) },
  ];
}

/**
 * Starts PostgreSQL (unless given one), ejabberd, Janus and the API, each as a child process
 * bound to loopback, and resolves once the API reports every dependency up. Servers of this data
 * folder left by a supervisor that was killed are stopped first. A server that dies later is
 * started again (`restartPolicy`). `stop` ends them in reverse order and is idempotent. A
 * failure part-way stops what had started.
 */
export async function startStack(options: StackOptions): Promise<RunningStack> {
  const dir = prepareDataDir(options.dataDir);
  const release = claimDataDir(dir.root);
  const policy = { ...DEFAULT_RESTART_POLICY, ...options.restartPolicy };
  const supervised: Partial<Record<ServerName, SupervisedServer>> = {};
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      const inOrder = (['api', 'janus', 'xmpp', 'database'] as const).flatMap(
        (name) => supervised[name] ?? [],
      );
      // No restarts while the others stop (a service manager may signal them all at once).
      for (const server of inOrder) server.halt();
      for (const server of inOrder) await server.stop().catch(() => undefined);
      release();
    })());
  const supervise = <T extends Service>(
    name: ServerName,
    label: string,
    first: T,
    start: (previous: T) => Promise<T>,
  ): Supervised<T> => {
    const server = new Supervised(first, {
      name: label,
      start,
      policy,
      log: options.log,
      // The API cannot start without its dependencies: once one is back, it need not wait.
      ...(name === 'api' ? {} : { onBack: () => supervised.api?.kick() }),
    });
    supervised[name] = server;
    return server;
  };

  try {
    const left = await stopLeftovers(leftoversOf(dir));
    if (left.length > 0) options.log(`Stopped what a killed run had left: ${left.join(', ')}.`);
    const secrets = loadOrCreateSecrets(dir);
    const postgres = options.databaseUrl
      ? undefined
      : supervise('database', 'PostgreSQL', await startLocalPostgres(dir), () =>
          startLocalPostgres(dir),
        );
    // The socket folder stays the same across restarts, and so does the URL.
    const database = postgres?.current ?? { url: options.databaseUrl as string };

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
    // Both settle before a failure is thrown, so that stop() finds whichever did start.
    const [xmppStart, janusStart] = await Promise.allSettled([
      startEjabberd(ejabberdOptions).then((first) =>
        // The same ports: the API's environment names them.
        supervise('xmpp', 'ejabberd', first, (previous) =>
          startEjabberd({
            ...ejabberdOptions,
            wsPort: previous.wsPort,
            c2sPort: previous.c2sPort,
            adminApiPort: Number(new URL(previous.adminApiUrl).port),
          }),
        ),
      ),
      startJanus(janusOptions).then((first) =>
        supervise('janus', 'Janus', first, (previous) =>
          startJanus({ ...janusOptions, httpPort: previous.httpPort, wsPort: previous.wsPort }),
        ),
      ),
    ]);
    if (xmppStart.status === 'rejected') throw xmppStart.reason;
    if (janusStart.status === 'rejected') throw janusStart.reason;
    const [ejabberd, janus] = [xmppStart.value, janusStart.value];

    const url = `http://${options.host === '0.0.0.0' ? '127.0.0.1' : options.host}:${options.port}`;
    const health = () => fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
    const wait: WaitOptions = { timeoutMs: 60_000, intervalMs: 100 };
    const startApi = async (ready: () => Promise<boolean>) => {
      const proc = await startProcess({
        name: 'api',
        command: process.execPath,
        args: ['--import', 'tsx', join(options.repoRoot, 'apps/api/src/server.ts')],
        cwd: options.repoRoot,
        logFile: join(dir.logs, 'api.log'),
        // A stopping API first lets its live calls go on for DRAIN_GRACE_SECONDS (which it
        // validates), then has 10 s to close: it is killed only after both.
        stopTimeoutMs: (Number(process.env.DRAIN_GRACE_SECONDS) || 0) * 1000 + 15_000,
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
      try {
        await proc.waitUntilReady(ready, wait);
      } catch (error) {
        await proc.stop().catch(() => undefined);
        throw error;
      }
      return proc;
    };
    // The first start waits for every dependency; a restart only for the API to answer, since
    // /api/health then tells which dependency is still down.
    const api = supervise('api', 'the API', await startApi(async () => (await health()).ok), () =>
      startApi(async () => [200, 503].includes((await health()).status)),
    );
    return {
      url,
      databaseUrl: database.url,
      dataDir: dir.root,
      get pids() {
        return {
          api: api.current.pid,
          janus: janus.current.pid,
          ejabberd: ejabberd.current.beamPid,
          ...(postgres ? { database: postgres.current.process.pid } : {}),
        };
      },
      get servers() {
        return Object.fromEntries(
          Object.entries(supervised).map(([name, server]) => [
            name,
            { up: server.up, restarts: server.restarts },
          ]),
        );
      },
      restart: (server) => {
        const target = supervised[server];
        return target ? target.restart() : Promise.reject(new Error(`no ${server} to restart`));
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
