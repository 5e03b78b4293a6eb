import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seedOnStart } from './db/seed.ts';
import { provisionChatRooms } from './xmpp/room-provisioning.ts';

const config = loadConfig(process.env);
const db = await openDatabase(config.databaseUrl, config.databaseSchema);
await migrateToLatest(db);
await seedOnStart(db, config.host, process.env);

const app = await buildApp({ config, db });
// Before listening: a guest joining a room that does not exist yet would create it as an
// instant room of its own. Here rather than in buildApp, so inject tests need no ejabberd.
await provisionChatRooms(
  db,
  { adminApiUrl: config.xmpp.adminUrl, domain: config.xmpp.domain },
  app.log,
);

app.staffChats.start();

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
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
