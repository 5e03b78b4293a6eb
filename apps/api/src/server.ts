import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seedOnStart } from './db/seed.ts';
import { waitForOwnConnections } from './lifecycle/drain.ts';
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

// The sweeps (staff chats past their sign-in, calls both sides left) and the rate-limit cleanup,
// run by whichever replica holds each one's lock (decision 0038).
app.clusterTasks.start();

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal, graceMs: config.drainGraceMs }, 'shutting down: no new calls');
  app.drain.begin();
  // Another replica takes the sweeps over at its next tick.
  await app.clusterTasks.close();
  if (config.drainGraceMs > 0) {
    const connections = await waitForOwnConnections(app.gatewayConnections, config.drainGraceMs, {
      pollMs: 2000,
      onWaiting: (open) => app.log.info({ open }, 'waiting for relayed WebSockets to close'),
    });
    app.log.info({ connections }, 'closing');
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
