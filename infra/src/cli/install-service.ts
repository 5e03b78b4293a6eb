// `npm run install-service [-- --output FILE]`: writes the systemd unit that runs this clone's
// `npm start` supervisor at boot, checks it with systemd-analyze, and reloads systemd when
// systemd is what runs the machine.
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { renderServiceUnit, SYSTEMD_UNIT_PATH } from '../service-unit.ts';

const repoRoot = resolve(import.meta.dirname, '../../..');
const log = (line: string) => console.log(`[install-service] ${line}`);

const { values } = parseArgs({ options: { output: { type: 'string' } } });
const target = resolve(values.output ?? SYSTEMD_UNIT_PATH);

try {
  writeFileSync(target, renderServiceUnit(repoRoot), { mode: 0o644 });
  log(`Wrote ${target}.`);
  const verify = spawnSync('systemd-analyze', ['verify', target], { encoding: 'utf8' });
  if (verify.error === undefined) {
    // systemd-analyze exits 0 on many findings: what it prints is the verdict.
    const findings = `${verify.stdout}${verify.stderr}`.trim();
    if (verify.status !== 0 || findings !== '')
      throw new Error(`systemd-analyze verify:\n${findings}`);
    log('systemd-analyze verify: no findings.');
  }
  // A copy elsewhere (`--output`) is for inspection: nothing to reload.
  if (target === SYSTEMD_UNIT_PATH && existsSync('/run/systemd/system')) {
    const reload = spawnSync('systemctl', ['daemon-reload'], { stdio: 'inherit' });
    if (reload.status !== 0) throw new Error('systemctl daemon-reload failed');
    log('Start it now and at every boot: systemctl enable --now frontdesk');
    log('Its output: journalctl -u frontdesk -f');
  } else if (target === SYSTEMD_UNIT_PATH) {
    log('systemd does not run this machine: the unit takes effect where it does.');
  }
} catch (error) {
  console.error(`[install-service] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
