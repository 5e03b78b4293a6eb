import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { buildApiIfStale } from './build-api.ts';
import { checkSiteCertificate, isCaddyOf, startCaddy, type SiteTls } from './caddy.ts';
import {
  certificateFingerprint,
  certificatePairProblem,
  watchCertificate,
  type CertificateFiles,
} from './certificate-files.ts';
import { deactivateDemoLogins } from './public-mode.ts';
import {
  choosePort,
  DEFAULT_RELAY_PORTS,
  DEFAULT_TURN_PORT,
  isCoturnOf,
  janusAddresses,
  startCoturn,
  turnUrls,
  type TurnTls,
} from './coturn.ts';
import { loadOrCreateSecrets, prepareDataDir, type Secrets } from './data-dir.ts';
import { isEjabberdOf, startEjabberd } from './ejabberd.ts';
import { isJanusOf, startJanus } from './janus.ts';
import { isPostmasterOf, startLocalPostgres } from './postgres.ts';
import {
  freePort,
  processEnvironment,
  startProcess,
  type ProcessInfo,
  type StartProcessOptions,
  type WaitOptions,
} from './process.ts';
import { DEFAULT_LOG_ROTATION, type LogRotation } from './service-log.ts';
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
  /** Where browsers reach coturn (a name, for TLS); default: Janus's first address, like media. */
  turnHost?: string;
  /** UDP ports coturn relays media on; default {@link DEFAULT_RELAY_PORTS}. */
  turnRelayPorts?: readonly [number, number];
  /** A certificate for TURN over TLS (port 5349); without one, TURN runs on UDP and TCP only. */
  turnTls?: TurnTls;
  seedDemo: boolean;
  /**
   * Public mode: Caddy serves this host over HTTPS in front of the API (which should then listen
   * on loopback) and the API believes Caddy's X-Forwarded-* headers (docs/operations.md,
   * "Public mode").
   */
  publicSite?: PublicSite;
  logLevel: string;
  /** How every server's log is rotated; default {@link DEFAULT_LOG_ROTATION}. */
  logRotation?: LogRotation;
  log: (line: string) => void;
  /** How soon a server that died is started again; default {@link DEFAULT_RESTART_POLICY}. */
  restartPolicy?: Partial<RestartPolicy>;
  /** How often the certificate files are checked for a renewal; default a minute. */
  certificateCheckMs?: number;
};

/** How often renewed certificate files are looked for (certbot renews 30 days ahead). */
const CERTIFICATE_CHECK_MS = 60_000;

/** What public mode serves: the host browsers use, its ports, the certificate or ACME. */
export type PublicSite = {
  host: string;
  httpsPort: number;
  httpPort: number;
  /** The operator's certificate files; without them Caddy uses ACME. */
  tls?: SiteTls;
  acmeEmail?: string;
};

/** The servers of a stack, as the supervisor names them. */
export type ServerName = 'database' | 'xmpp' | 'janus' | 'turn' | 'api' | 'proxy';

export type RunningStack = {
  url: string;
  /** Public mode: the HTTPS address browsers use (Caddy's). */
  publicUrl?: string;
  databaseUrl: string;
  dataDir: string;
  /**
   * Process ids of the servers, for measurements (CPU, memory); `database` only for our own,
   * `proxy` (Caddy) only in public mode.
   */
  readonly pids: {
    api: number;
    janus: number;
    ejabberd: number;
    turn: number;
    database?: number;
    proxy?: number;
  };
  /** What browsers are told of the TURN server (coturn), and the UDP ports it relays on. */
  readonly turn: { urls: readonly string[]; relayPorts: readonly [number, number] };
  /** Whether each server is up as the supervisor sees it, and how often it was restarted. */
  readonly servers: Partial<Record<ServerName, { up: boolean; restarts: number }>>;
  /** Stops a server and starts it again on the same ports and state (the fault journeys). */
  restart: (server: ServerName) => Promise<void>;
  stop: () => Promise<void>;
};

/**
 * Whether a process is the API of the data folder `root` (absolute): the bundle the stack runs,
 * or the source an older supervisor ran through tsx, with that folder in its environment.
 */
export function isApiOf(root: string, proc: ProcessInfo): boolean {
  return (
    proc.comm === 'node' &&
    proc.args.some((arg) => /\/apps\/api\/(src\/server\.ts|dist\/server\.js)$/.test(arg)) &&
    processEnvironment(proc.pid, 'FRONTDESK_DATA_DIR') === root
  );
}

/** The servers a supervisor of `dir` starts, recognised when their supervisor is gone. */
export function leftoversOf(dir: ReturnType<typeof prepareDataDir>): Leftover[] {
  return [
    { name: 'the API', matches: (p) => isApiOf(dir.root, p) },
    // SIGINT is PostgreSQL's fast shutdown: it does not wait for clients to leave.
    { name: 'PostgreSQL', matches: (p) => isPostmasterOf(dir.postgres, p), signal: 'SIGINT' },
    { name: 'ejabberd', matches: (p) => isEjabberdOf(dir.ejabberd, p) },
    { name: 'Janus', matches: (p) => isJanusOf(dir.janus, p) },
    { name: 'Caddy', matches: (p) => isCaddyOf(join(dir.root, 'caddy'), p) },
    { name: 'coturn', matches: (p) => isCoturnOf(dir.coturn, p) },
  ];
}

/** What an API process is told: where its servers are, and the secrets it shares with them. */
export type ApiProcessSettings = {
  repoRoot: string;
  /** The compiled API (infra/src/build-api.ts). */
  bundle: string;
  logFile: string;
  logRotation: LogRotation;
  host: string;
  port: number;
  databaseUrl: string;
  databaseSchema?: string;
  dataDir: string;
  secrets: Secrets;
  xmpp: { domain: string; wsUrl: string; adminApiUrl: string };
  janus: { wsUrl: string; httpUrl: string };
  /** Settings of this deployment only (TURN, a proxy to trust, a pool of media servers). */
  extraEnv?: NodeJS.ProcessEnv;
  seedDemo: boolean;
  logLevel: string;
  /** A node of the simulated cluster (infra/src/cluster/). */
  netns?: string;
};

/** How an API process is started, by `npm start` and by the simulated cluster alike. */
export function apiProcessOptions(settings: ApiProcessSettings): StartProcessOptions {
  return {
    name: 'api',
    command: process.execPath,
    // Compiled, not through a TypeScript loader (infra/src/build-api.ts); stack traces still
    // name the TypeScript lines. A young generation of 2 × 4 MiB rather than V8's 2 × 16 MiB:
    // the start's garbage grew it to 32 MiB, kept for good once idle (docs/performance.md,
    // "Memory", with the throughput measured on both).
    args: ['--enable-source-maps', '--max-semi-space-size=4', settings.bundle],
    cwd: settings.repoRoot,
    logFile: settings.logFile,
    logRotation: settings.logRotation,
    ...(settings.netns ? { netns: settings.netns } : {}),
    // A stopping API first lets its live calls go on for DRAIN_GRACE_SECONDS (which it
    // validates), then has 10 s to close: it is killed only after both.
    stopTimeoutMs: (Number(process.env.DRAIN_GRACE_SECONDS) || 0) * 1000 + 15_000,
    env: {
      ...process.env,
      HOST: settings.host,
      PORT: String(settings.port),
      DATABASE_URL: settings.databaseUrl,
      ...(settings.databaseSchema ? { DATABASE_SCHEMA: settings.databaseSchema } : {}),
      FRONTDESK_DATA_DIR: settings.dataDir,
      XMPP_DOMAIN: settings.xmpp.domain,
      XMPP_WEBSOCKET_UPSTREAM: settings.xmpp.wsUrl,
      XMPP_ADMIN_URL: settings.xmpp.adminApiUrl,
      JANUS_WEBSOCKET_UPSTREAM: settings.janus.wsUrl,
      JANUS_HTTP_URL: settings.janus.httpUrl,
      API_TOKEN_SECRET: settings.secrets.apiTokenSecret,
      GUEST_FINGERPRINT_KEY: settings.secrets.guestFingerprintKey,
      XMPP_JWT_SECRET: settings.secrets.xmppJwtSecret,
      JANUS_TOKEN_SECRET: settings.secrets.janusTokenSecret,
      JANUS_ADMIN_KEY: settings.secrets.janusAdminKey,
      ...settings.extraEnv,
      SEED_DEMO: String(settings.seedDemo),
      LOG_LEVEL: settings.logLevel,
    },
  };
}

/**
 * Starts PostgreSQL (unless given one), ejabberd, Janus, coturn and the API, each as a child
 * process bound to loopback (but Janus's media and coturn, which browsers reach), and resolves
 * once the API reports every dependency up. Servers of this data folder left by a supervisor
 * that was killed are stopped first. A server that dies later is started again
 * (`restartPolicy`). `stop` ends them in reverse order and is idempotent. A failure part-way
 * stops what had started.
 */
export async function startStack(options: StackOptions): Promise<RunningStack> {
  const dir = prepareDataDir(options.dataDir);
  const release = claimDataDir(dir.root);
  const policy = { ...DEFAULT_RESTART_POLICY, ...options.restartPolicy };
  const logRotation = options.logRotation ?? DEFAULT_LOG_ROTATION;
  const supervised: Partial<Record<ServerName, SupervisedServer>> = {};
  const stopWatching: (() => void)[] = [];
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      for (const unwatch of stopWatching) unwatch();
      const inOrder = (['proxy', 'api', 'turn', 'janus', 'xmpp', 'database'] as const).flatMap(
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
    // Before any server starts: a build that fails costs nothing to undo.
    const apiBundle = await buildApiIfStale(options.repoRoot, options.log);
    const secrets = loadOrCreateSecrets(dir);
    const postgres = options.databaseUrl
      ? undefined
      : supervise('database', 'PostgreSQL', await startLocalPostgres(dir, logRotation), () =>
          startLocalPostgres(dir, logRotation),
        );
    // The socket folder stays the same across restarts, and so does the URL.
    const database = postgres?.current ?? { url: options.databaseUrl as string };

    // What the certificate files hold before coturn and Caddy copy them: a renewal from now on,
    // during the start too, is taken (below).
    const [turnServed, siteServed] = await Promise.all(
      [options.turnTls, options.publicSite?.tls].map(
        (files) => files && certificateFingerprint(files),
      ),
    );

    // coturn relays only to where Janus is (decision 0015); browsers reach it where they reach
    // Janus. Its port is chosen here: ejabberd announces it as the STUN server (XEP-0215).
    const janusAt = janusAddresses(options.janusIceEnforceList, options.janusPublicIp);
    const turnHost = options.turnHost ?? janusAt[0] ?? '127.0.0.1';
    const coturnOptions = {
      dir: dir.coturn,
      logFile: join(dir.logs, 'coturn.log'),
      logRotation,
      secret: secrets.turnSecret,
      realm: options.xmppDomain,
      port: await choosePort(DEFAULT_TURN_PORT, true),
      relayPorts: options.turnRelayPorts ?? DEFAULT_RELAY_PORTS,
      allowedPeers: janusAt,
      // Behind the 1:1 NAT Janus is told of, coturn's relay addresses are mapped the same way.
      ...(options.janusPublicIp && janusAt[0] ? { externalIp: janusAt[0] } : {}),
      ...(options.turnTls ? { tls: options.turnTls } : {}),
      // Where the API counts allocations for /metrics. A new password at each start, kept across
      // coturn's restarts: only this run's API is told it.
      cli: { port: await freePort(), password: randomBytes(24).toString('base64url') },
    };
    const ejabberdOptions = {
      dir: dir.ejabberd,
      domain: options.xmppDomain,
      jwtSecret: Buffer.from(secrets.xmppJwtSecret, 'base64url'),
      stunHost: turnHost,
      stunPort: coturnOptions.port,
      logRotation,
    };
    const janusOptions = {
      dir: dir.janus,
      tokenSecret: secrets.janusTokenSecret,
      adminKey: secrets.janusAdminKey,
      adminSecret: secrets.janusAdminSecret,
      recordingsDir: dir.recordings,
      rtpPortRange: options.janusRtpPorts,
      logRotation,
      ...(options.janusIceEnforceList ? { iceEnforceList: options.janusIceEnforceList } : {}),
      ...(options.janusPublicIp ? { natPublicIp: options.janusPublicIp } : {}),
    };
    // All settle before a failure is thrown, so that stop() finds whichever did start.
    const [xmppStart, janusStart, turnStart] = await Promise.allSettled([
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
      // The same ports: browsers were told them.
      startCoturn(coturnOptions).then((first) =>
        supervise('turn', 'coturn', first, (previous) =>
          startCoturn({ ...coturnOptions, port: previous.port, tlsPort: previous.tlsPort }),
        ),
      ),
    ]);
    if (xmppStart.status === 'rejected') throw xmppStart.reason;
    if (janusStart.status === 'rejected') throw janusStart.reason;
    if (turnStart.status === 'rejected') throw turnStart.reason;
    const [ejabberd, janus, coturn] = [xmppStart.value, janusStart.value, turnStart.value];
    const turn = { urls: turnUrls(turnHost, coturn.current), relayPorts: coturnOptions.relayPorts };

    const url = `http://${options.host === '0.0.0.0' ? '127.0.0.1' : options.host}:${options.port}`;
    const health = () => fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
    const wait: WaitOptions = { timeoutMs: 60_000, intervalMs: 100 };
    const startApi = async (ready: () => Promise<boolean>) => {
      const proc = await startProcess(
        apiProcessOptions({
          repoRoot: options.repoRoot,
          bundle: apiBundle,
          logFile: join(dir.logs, 'api.log'),
          logRotation,
          host: options.host,
          port: options.port,
          databaseUrl: database.url,
          ...(options.databaseSchema ? { databaseSchema: options.databaseSchema } : {}),
          dataDir: dir.root,
          secrets,
          xmpp: {
            domain: ejabberd.current.domain,
            wsUrl: ejabberd.current.wsUrl,
            adminApiUrl: ejabberd.current.adminApiUrl,
          },
          janus: { wsUrl: janus.current.wsUrl, httpUrl: janus.current.httpUrl },
          // The API hands a call's parties credentials for our coturn; STUN is its plain port.
          extraEnv: {
            TURN_URLS: turn.urls.join(','),
            TURN_SECRET: secrets.turnSecret,
            TURN_CLI_ADDRESS: `127.0.0.1:${coturnOptions.cli.port}`,
            TURN_CLI_PASSWORD: coturnOptions.cli.password,
            // Behind Caddy every request comes from loopback: believe exactly that hop's
            // X-Forwarded-For and -Proto (the visitor's address, https for wss:// URLs).
            ...(options.publicSite ? { TRUST_PROXY: '127.0.0.1' } : {}),
          },
          seedDemo: options.seedDemo,
          logLevel: options.logLevel,
        }),
      );
      try {
        await proc.waitUntilReady(ready, wait);
      } catch (error) {
        await proc.stop().catch(() => undefined);
        throw error;
      }
      return proc;
    };
    if (options.publicSite && !options.seedDemo) {
      const off = await deactivateDemoLogins(database.url, options.databaseSchema);
      if (off > 0) options.log(`Switched off ${off} demo logins left by an earlier local start.`);
    }
    // The first start waits for every dependency; a restart only for the API to answer, since
    // /api/health then tells which dependency is still down.
    const api = supervise('api', 'the API', await startApi(async () => (await health()).ok), () =>
      startApi(async () => [200, 503].includes((await health()).status)),
    );
    // Last, so browsers arrive only once the API is ready; restarted on the same ports.
    const site = options.publicSite;
    const proxy = site
      ? await (async () => {
          const caddyOptions = {
            ...site,
            dir: join(dir.root, 'caddy'),
            logFile: join(dir.logs, 'caddy.log'),
            logRotation,
            upstreamPort: options.port,
          };
          return supervise('proxy', 'Caddy', await startCaddy(caddyOptions), () =>
            startCaddy(caddyOptions),
          );
        })()
      : undefined;

    // Renewed certificate files (certbot's, say) are taken while everything runs: a new file
    // that is not yet whole, or not for the site, leaves the served one in place.
    const takeRenewals = (
      label: string,
      files: CertificateFiles,
      served: string | undefined,
      problem: () => Promise<string | undefined>,
      reload: () => Promise<void>,
    ) =>
      stopWatching.push(
        watchCertificate(
          files,
          served,
          options.certificateCheckMs ?? CERTIFICATE_CHECK_MS,
          async () => {
            try {
              const wrong = await problem();
              if (wrong !== undefined) throw new Error(wrong);
              await reload();
              options.log(`${label} serves the renewed certificate from ${files.certFile}.`);
            } catch (error) {
              options.log(
                `${label} keeps its certificate: the renewed ${files.certFile} was not taken ` +
                  `(${error instanceof Error ? error.message.split('\n')[0] : String(error)}).`,
              );
            }
          },
        ),
      );
    if (options.turnTls) {
      const tls = options.turnTls;
      takeRenewals(
        'coturn',
        tls,
        turnServed,
        () => certificatePairProblem(tls),
        () => coturn.current.reloadCertificate(),
      );
    }
    if (proxy && site?.tls) {
      const tls = site.tls;
      takeRenewals(
        'Caddy',
        tls,
        siteServed,
        async () => {
          checkSiteCertificate(tls, site.host);
          return undefined;
        },
        () => proxy.current.reloadCertificate(),
      );
    }
    return {
      url,
      ...(proxy ? { publicUrl: proxy.current.url } : {}),
      databaseUrl: database.url,
      dataDir: dir.root,
      get pids() {
        return {
          api: api.current.pid,
          janus: janus.current.pid,
          ejabberd: ejabberd.current.beamPid,
          turn: coturn.current.pid,
          ...(postgres ? { database: postgres.current.process.pid } : {}),
          ...(proxy ? { proxy: proxy.current.pid } : {}),
        };
      },
      turn,
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
