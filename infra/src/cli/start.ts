// `npm start`: installs what is missing, then runs the whole stack in the foreground until
// Ctrl-C or SIGTERM, and stops everything it started.
import { resolve } from 'node:path';
import { z } from 'zod';
import { buildAppsIfStale } from '../build-apps.ts';
import { defaultDataDir } from '../data-dir.ts';
import { ensureDebianPackages, RUNTIME_PACKAGES } from '../debian.ts';
import { DEMO_LOGINS, SEEDED_COMPANY, demoLoginsAllowed } from '@frontdesk/api/seed';
import { startStack, type RunningStack } from '../stack.ts';

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
    LOG_LEVEL: z.string().default('info'),
  })
  .safeParse(process.env);
if (!env.success) {
  console.error(
    `Invalid environment: ${env.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
  );
  process.exit(2);
}
const settings = env.data;
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
  if (stopRequested) process.exit(0);
  log('Starting PostgreSQL, XMPP, Janus and the API…');
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
    janusRtpPorts: settings.JANUS_RTP_PORTS,
    seedDemo: true,
    logLevel: settings.LOG_LEVEL,
    log,
  });
  if (stopRequested) {
    stopRequested = false;
    await shutdown('Asked to stop during the start');
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    [
      '',
      `Frontdesk is ready (${seconds} s).`,
      `  Guest page:  ${stack.url}/  (demo company ${SEEDED_COMPANY.demo}, open Mon–Fri 08–20 London)`,
      `               ${stack.url}/?company=${SEEDED_COMPANY.aroundTheClock}  (its twin, open around the clock)`,
      `  Console:     ${stack.url}/console/`,
      // The API creates the demo logins only on a loopback address or with FRONTDESK_DEMO=1.
      ...(demoLoginsAllowed(settings.HOST, process.env)
        ? DEMO_LOGINS.map(
            (login) =>
              `               ${login.email} / ${login.password}  (${login.role}, company ${login.companyId})`,
          )
        : ['               (no demo logins: HOST is not loopback; FRONTDESK_DEMO=1 creates them)']),
      `  Health:      ${stack.url}/api/health`,
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
