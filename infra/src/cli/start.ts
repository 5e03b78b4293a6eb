// `npm start`: installs what is missing, then runs the whole stack in the foreground until
// Ctrl-C or SIGTERM, and stops everything it started.
import { resolve } from 'node:path';
import { z } from 'zod';
import { buildAppsIfStale } from '../build-apps.ts';
import { defaultDataDir } from '../data-dir.ts';
import { ensureDebianPackages, RUNTIME_PACKAGES } from '../debian.ts';
import { DEMO_LOGINS, SEEDED_COMPANY, demoLoginsAllowed } from '@frontdesk/api/seed';
import { startStack, type RunningStack } from '../stack.ts';
import { DEFAULT_LOG_ROTATION, parseLogSize } from '../service-log.ts';
import { checkSiteCertificate, ensureCaddy, type CertificateInfo } from '../caddy.ts';
import {
  detectJanusPublicIp,
  isLoopbackHost,
  publicEnvSchema,
  publicSiteOf,
  type JanusAddress,
} from '../public-mode.ts';

const repoRoot = resolve(import.meta.dirname, '../../..');
const dataDirDefault = defaultDataDir(repoRoot);

const env = z
  .object({
    PORT: z.coerce.number().int().min(1).max(65535).default(8080),
    HOST: z.string().default('127.0.0.1'),
    DATABASE_URL: z.string().optional(),
    FRONTDESK_DATA_DIR: z.string().optional(),
    XMPP_DOMAIN: z.string().default('frontdesk.localhost'),
    JANUS_ICE_INTERFACES: z.string().optional(),
    JANUS_PUBLIC_IP: z.string().optional(),
    JANUS_RTP_PORTS: z
      .string()
      .regex(/^\d+-\d+$/, 'must look like 20000-20200')
      .default('20000-20200')
      .transform((range) => range.split('-').map(Number) as [number, number]),
    TURN_HOST: z
      .string()
      .regex(/^[\w.:-]+$/, 'must be a host name or address')
      .optional(),
    TURN_RELAY_PORTS: z
      .string()
      .regex(/^\d+-\d+$/, 'must look like 49152-49651')
      .default('49152-49651')
      .transform((range) => range.split('-').map(Number) as [number, number]),
    TURN_TLS_CERT: z.string().optional(),
    TURN_TLS_KEY: z.string().optional(),
    LOG_LEVEL: z.string().default('info'),
    LOG_ROTATE_SIZE: z
      .string()
      .optional()
      .transform((text, context) => {
        if (text === undefined) return DEFAULT_LOG_ROTATION.maxBytes;
        const bytes = parseLogSize(text);
        if (bytes === undefined) {
          context.addIssue({ code: 'custom', message: 'must be a size such as 10M, 512K or 1G' });
          return z.NEVER;
        }
        return bytes;
      }),
    LOG_ROTATE_KEEP: z.coerce.number().int().min(1).max(100).default(DEFAULT_LOG_ROTATION.keep),
  })
  .refine((e) => (e.TURN_TLS_CERT === undefined) === (e.TURN_TLS_KEY === undefined), {
    path: ['TURN_TLS_KEY'],
    message: 'TURN_TLS_CERT and TURN_TLS_KEY go together (PEM files of one certificate)',
  })
  .safeParse(process.env);
if (!env.success) {
  console.error(
    `Invalid environment: ${env.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
  );
  process.exit(2);
}
const settings = env.data;
// Public mode (FRONTDESK_PUBLIC_URL): Caddy in front on 443 and 80, the API on loopback behind
// it, no demo data unless FRONTDESK_DEMO=1 (docs/operations.md, "Public mode").
const publicEnv = publicEnvSchema.safeParse(process.env);
if (!publicEnv.success) {
  console.error(
    `Invalid environment: ${publicEnv.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
  );
  process.exit(2);
}
const site = publicSiteOf(publicEnv.data);
if (site && !isLoopbackHost(settings.HOST)) {
  console.error(
    `Invalid environment: HOST ${settings.HOST} with FRONTDESK_PUBLIC_URL: in public mode the API ` +
      'listens on 127.0.0.1 behind Caddy; leave HOST unset',
  );
  process.exit(2);
}
const demoData = !site || process.env.FRONTDESK_DEMO === '1';
const log = (line: string) => console.log(`[frontdesk] ${line}`);
const dataDir = settings.FRONTDESK_DATA_DIR ?? dataDirDefault.path;

let stack: RunningStack | undefined;
let stopRequested = false;
const shutdown = async (why: string) => {
  if (stopRequested) return;
  stopRequested = true;
  // Mid-start the servers are stopped once startStack has them all (it is bounded by its
  // readiness deadlines); stopping them now would race the start.
  if (!stack) return log(`${why}: stopping once the start is over…`);
  log(`${why}: stopping…`);
  await stack.stop();
  log('Stopped.');
  process.exit(0);
};
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
// npm passes SIGTERM on and waits (`exec` in package.json), but a parent killed outright would
// leave us running under another one, with nobody to ask us to stop.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) void shutdown(`parent process ${parent} ended`);
}, 500).unref();

try {
  const started = performance.now();
  ensureDebianPackages(RUNTIME_PACKAGES, log);
  buildAppsIfStale(repoRoot, log);
  let certificate: CertificateInfo | undefined;
  let janusAddress: JanusAddress | undefined;
  if (site) {
    ensureCaddy(log);
    if (site.tls) certificate = checkSiteCertificate(site.tls, site.host);
    janusAddress = settings.JANUS_PUBLIC_IP
      ? { ip: settings.JANUS_PUBLIC_IP, why: 'JANUS_PUBLIC_IP' }
      : await detectJanusPublicIp(site.host);
  }
  if (stopRequested) process.exit(0);
  log('Starting PostgreSQL, XMPP, Janus, TURN and the API…');
  stack = await startStack({
    repoRoot,
    dataDir,
    host: settings.HOST,
    port: settings.PORT,
    ...(settings.DATABASE_URL ? { databaseUrl: settings.DATABASE_URL } : {}),
    xmppDomain: settings.XMPP_DOMAIN,
    ...(settings.JANUS_ICE_INTERFACES
      ? { janusIceEnforceList: settings.JANUS_ICE_INTERFACES }
      : {}),
    ...(settings.JANUS_PUBLIC_IP ? { janusPublicIp: settings.JANUS_PUBLIC_IP } : {}),
    ...(janusAddress?.ip ? { janusPublicIp: janusAddress.ip } : {}),
    janusRtpPorts: settings.JANUS_RTP_PORTS,
    // In public mode TURN is reached by the site's name, and over TLS with its certificate.
    ...(settings.TURN_HOST || site ? { turnHost: settings.TURN_HOST ?? site?.host } : {}),
    turnRelayPorts: settings.TURN_RELAY_PORTS,
    ...(settings.TURN_TLS_CERT && settings.TURN_TLS_KEY
      ? { turnTls: { certFile: settings.TURN_TLS_CERT, keyFile: settings.TURN_TLS_KEY } }
      : site?.tls
        ? { turnTls: site.tls }
        : {}),
    seedDemo: demoData,
    ...(site ? { publicSite: site } : {}),
    logLevel: settings.LOG_LEVEL,
    logRotation: { maxBytes: settings.LOG_ROTATE_SIZE, keep: settings.LOG_ROTATE_KEEP },
    log,
  });
  if (stopRequested) {
    stopRequested = false;
    await shutdown('Asked to stop during the start');
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  // Where browsers go: Caddy's HTTPS address in public mode.
  const base = stack.publicUrl ?? stack.url;
  console.log(
    [
      '',
      `Frontdesk is ready (${seconds} s).`,
      ...(demoData
        ? [
            `  Guest page:  ${base}/  (demo company ${SEEDED_COMPANY.demo}, open Mon–Fri 08–20 London)`,
            `               ${base}/?company=${SEEDED_COMPANY.aroundTheClock}  (its twin, open around the clock)`,
          ]
        : [`  Guest page:  ${base}/?company=<id>  (npm run create-company prints each one's)`]),
      `  Console:     ${base}/console/`,
      // The API creates the demo logins only on a loopback address or with FRONTDESK_DEMO=1.
      ...(!demoData
        ? [
            '               (no demo data in public mode; the first company and its admin:',
            '                npm run create-company -- --name "Acme" --admin-email ops@acme.example)',
          ]
        : demoLoginsAllowed(settings.HOST, process.env)
          ? DEMO_LOGINS.map(
              (login) =>
                `               ${login.email} / ${login.password}  (${login.role}, company ${login.companyId})`,
            )
          : [
              '               (no demo logins: HOST is not loopback; FRONTDESK_DEMO=1 creates them)',
            ]),
      // Browsers reach these directly (not through PORT): the firewall must let them in.
      `  TURN:        coturn at ${stack.turn.urls.join(' ')}`,
      `               relay ports ${stack.turn.relayPorts.join('-')}/udp` +
        (stack.turn.urls.some((url) => url.startsWith('turns:'))
          ? ''
          : '; no TLS (TURN_TLS_CERT and TURN_TLS_KEY)'),
      ...(site
        ? [
            `  HTTPS:       Caddy on ports ${site.httpsPort} and ${site.httpPort} (redirects to HTTPS), ` +
              `in front of the API on ${stack.url}`,
            certificate
              ? `               certificate files, issued by ${certificate.issuer}, valid until ${certificate.validTo.toISOString().slice(0, 10)}`
              : `               automatic certificate (ACME, Let's Encrypt): being obtained now if not yet; see logs/caddy.log`,
            `  Media:       Janus on UDP ${settings.JANUS_RTP_PORTS.join('-')}, ` +
              (janusAddress?.ip
                ? `announcing ${janusAddress.ip} (${janusAddress.why})`
                : `on this machine's own addresses (${janusAddress?.why ?? ''})`),
          ]
        : []),
      `  Health:      ${base}/api/health`,
      `  Data folder: ${stack.dataDir} (logs in logs/)`,
      ...(settings.FRONTDESK_DATA_DIR === undefined && dataDirDefault.reason
        ? [`               (not the clone's data/: ${dataDirDefault.reason})`]
        : []),
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
} catch (error) {
  console.error(
    `[frontdesk] Could not start: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
}
