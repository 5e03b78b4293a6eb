// `npm start`: installs what is missing, then runs the whole stack in the foreground until
// Ctrl-C or SIGTERM, and stops everything it started.
import { resolve } from 'node:path';
import { z } from 'zod';
import { buildAppsIfStale } from '../build-apps.ts';
import { ensureDebianPackages, RUNTIME_PACKAGES } from '../debian.ts';
import { DEMO_LOGINS, SEEDED_COMPANY, demoLoginsAllowed } from '@frontdesk/api/seed';
import { startStack } from '../stack.ts';

const repoRoot = resolve(import.meta.dirname, '../../..');

const env = z
  .object({
    PORT: z.coerce.number().int().min(1).max(65535).default(8080),
    HOST: z.string().default('127.0.0.1'),
    DATABASE_URL: z.string().optional(),
    FRONTDESK_DATA_DIR: z.string().default(resolve(repoRoot, 'data')),
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

try {
  const started = performance.now();
  ensureDebianPackages(RUNTIME_PACKAGES, log);
  buildAppsIfStale(repoRoot, log);
  log('Starting PostgreSQL, XMPP, Janus and the API…');
  const stack = await startStack({
    repoRoot,
    dataDir: settings.FRONTDESK_DATA_DIR,
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
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping…`);
    await stack.stop();
    log('Stopped.');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
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
