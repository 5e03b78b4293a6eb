// `npm run media-servers -- list | drain <name> | undrain <name>`: the Janus pool's servers as
// the API registered them (decision 0039). A drained server gets no new call; its live calls go
// on until they end, then it can be stopped for an upgrade; `undrain` takes it back. Works on the
// database `npm start` uses (running or not) or DATABASE_URL: every API process reads it.
import { parseArgs } from 'node:util';
import {
  listMediaServers,
  mediaServerNameSchema,
  setMediaServerState,
} from '@frontdesk/api/operations';
import { openOperatorDatabase } from './operator-database.ts';

const name = 'media-servers';
const USAGE = 'usage: npm run media-servers -- list | drain <name> | undrain <name>';
const fail: (message: string, status: number) => never = (message, status) => {
  console.error(`[${name}] ${message}`);
  process.exit(status);
};

const { positionals } = (() => {
  try {
    return parseArgs({ allowPositionals: true, strict: true });
  } catch (error) {
    return fail(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`, 2);
  }
})();
const [command, server, ...rest] = positionals;
const listing = command === 'list' && server === undefined;
const changing = (command === 'drain' || command === 'undrain') && rest.length === 0;
if (!listing && !changing) fail(USAGE, 2);
const serverName = mediaServerNameSchema.safeParse(server);
if (changing && !serverName.success) fail(`<name> must be a media server's name\n${USAGE}`, 2);

const { db, close } = await openOperatorDatabase(name);
let failure: string | undefined;
try {
  if (listing) {
    for (const row of await listMediaServers(db)) {
      const health =
        row.last_error ?? `healthy at ${row.last_healthy_at?.toISOString() ?? 'never'}`;
      console.log(
        `${row.name}\t${row.state}\t${row.live_calls ?? 0}/${row.capacity} live calls\t${health}`,
      );
    }
  } else if (serverName.success) {
    const state = command === 'drain' ? 'draining' : 'active';
    if (await setMediaServerState(db, serverName.data, state)) {
      console.log(
        state === 'draining'
          ? `[${name}] ${serverName.data} is draining: no new call goes to it; its live calls go on (list shows how many).`
          : `[${name}] ${serverName.data} is active: new calls may go to it again.`,
      );
    } else {
      failure = `no media server is named ${serverName.data} (the API registers JANUS_SERVERS when it starts)`;
    }
  }
} catch (error) {
  failure = `failed: ${error instanceof Error ? error.message : String(error)}`;
} finally {
  await close();
}
if (failure) fail(failure, 1);
