// `npm run restore -- ARCHIVE`: brings a backup back into an empty data folder (FRONTDESK_DATA_DIR,
// or npm start's default), so that the next `npm start` comes up with its data.
import { parseArgs } from 'node:util';
import { fail, failWith, readSettings, userPath } from '../backup/cli.ts';
import { restoreBackup } from '../backup/restore.ts';

const name = 'restore';
const usage =
  'usage: npm run restore -- ARCHIVE (into the data folder npm start uses: FRONTDESK_DATA_DIR or its default)';
let positionals: string[] = [];
try {
  ({ positionals } = parseArgs({ allowPositionals: true, strict: true }));
} catch (error) {
  fail(name, `${error instanceof Error ? error.message : String(error)}\n${usage}`, 2);
}
const [given] = positionals;
if (positionals.length !== 1 || !given) fail(name, usage, 2);
const archive = userPath(given);
const settings = readSettings(name);
const log = (line: string) => console.log(`[${name}] ${line}`);

try {
  const manifest = await restoreBackup({ ...settings, archive, log });
  log(
    `Restored the backup of ${manifest.createdAt} into ${settings.dataDir}: ` +
      `database (${Object.keys(manifest.database.rows).length} tables), ` +
      `${manifest.counts.uploads} uploads, ${manifest.counts.recordings} recordings, secrets. ` +
      'npm start will come up with them.',
  );
} catch (error) {
  failWith(name, error);
}
