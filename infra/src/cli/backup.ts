// `npm run backup [-- --out FILE]`: writes one owner-only archive of the data folder's state
// (database dump, uploads, recordings, secrets) while Frontdesk may keep running.
import { parseArgs } from 'node:util';
import { fail, failWith, readSettings, userPath } from '../backup/cli.ts';
import { createBackup } from '../backup/create.ts';

const name = 'backup';
let out: string | undefined;
try {
  ({
    values: { out },
  } = parseArgs({ options: { out: { type: 'string', short: 'o' } }, strict: true }));
} catch (error) {
  fail(
    name,
    `${error instanceof Error ? error.message : String(error)}\nusage: npm run backup [-- --out FILE]`,
    2,
  );
}
const settings = readSettings(name);
const log = (line: string) => console.log(`[${name}] ${line}`);

try {
  const started = performance.now();
  const { archive, bytes, manifest } = await createBackup({
    ...settings,
    ...(out ? { out: userPath(out) } : {}),
    log,
  });
  const reports = manifest.database.rows['public.call_reports'];
  const tables = Object.keys(manifest.database.rows).length;
  log(
    `Wrote ${archive} (${(bytes / 1024 / 1024).toFixed(1)} MiB, owner-only) in ${((performance.now() - started) / 1000).toFixed(1)} s: ` +
      `database (${tables} tables${reports === undefined ? '' : `, ${reports} call reports`}), ` +
      `${manifest.counts.uploads} uploads, ${manifest.counts.recordings} recordings, secrets.`,
  );
} catch (error) {
  failWith(name, error);
}
