// `npm run doctor`: checks what an operator gets wrong (public URL, ports, TURN, Janus, clock,
// data folder, packages) and prints each with OK/WARN/FAIL and the fix. Exits 1 when a check
// FAILs, so a script or a service manager can act on it. Run it with the environment `npm start`
// runs with (FRONTDESK_PUBLIC_URL, FRONTDESK_DATA_DIR, …).
import { resolve } from 'node:path';
import { formatReport, loadDoctorSettings, runDoctor } from '../doctor/index.ts';

const repoRoot = resolve(import.meta.dirname, '../../..');

try {
  const settings = await loadDoctorSettings(process.env, repoRoot);
  console.log(
    [
      'Frontdesk self-test',
      `  data folder: ${settings.dataDir}`,
      `  public URL:  ${settings.publicUrl?.href ?? '(none: local mode, FRONTDESK_PUBLIC_URL unset)'}`,
      '',
    ].join('\n'),
  );
  const { checks, notChecked } = await runDoctor(settings);
  console.log(formatReport(checks, notChecked, { colour: process.stdout.isTTY === true }));
  // Sockets of a check that overran may still be open: the verdict is in, so end here.
  process.exit(checks.some((check) => check.status === 'fail') ? 1 : 0);
} catch (error) {
  console.error(
    `[doctor] Could not run: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(2);
}
