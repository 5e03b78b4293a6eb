import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seedOnStart } from './db/seed.ts';
import { waitForLiveCalls } from './lifecycle/drain.ts';
import { provisionChatRooms } from './xmpp/room-provisioning.ts';

const config = loadConfig(process.env);
const db = await openDatabase(config.databaseUrl, config.databaseSchema);
await migrateToLatest(db, { fingerprintKey: config.secrets.guestFingerprint });
await seedOnStart(db, config, process.env);

const app = await buildApp({ config, db });
// Before listening: a guest joining a room that does not exist yet would create it as an
// instant room of its own. Here rather than in buildApp, so inject tests need no ejabberd.
await provisionChatRooms(
  db,
  { adminApiUrl: config.xmpp.adminUrl, domain: config.xmpp.domain },
  app.log,
);

app.staffChats.start();
// Answered calls both sides left without hanging up end after the reload grace (decision 0037).
app.callPresence.start();

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal, graceMs: config.drainGraceMs }, 'shutting down: no new calls');
  app.drain.begin();
  if (config.drainGraceMs > 0) {
    const calls = await waitForLiveCalls(db, config.drainGraceMs, {
      pollMs: 2000,
      onWaiting: (live) => app.log.info({ live }, 'waiting for live calls to end'),
    }).catch((error: unknown) => {
      app.log.warn({ err: error }, 'could not count the live calls; stopping');
      return 'graceOver' as const;
    });
    app.log.info({ calls }, 'closing');
  }
  // Open WebSockets would hold the server open: give requests a moment, then stop regardless.
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  await app.close();
  await db.destroy();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port: config.port, host: config.host });
