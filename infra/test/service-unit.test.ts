import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderServiceUnit } from '../src/service-unit.ts';
import { tempDir } from './helpers.ts';

const repoRoot = resolve(import.meta.dirname, '../..');
let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('frontdesk-service-unit-test-');
});
afterAll(async () => {
  await dir?.remove();
});

describe('npm run install-service', () => {
  it('writes a unit for this clone that systemd-analyze verifies without a finding', () => {
    const unit = join(dir.path, 'frontdesk.service');
    const install = spawnSync('npm', ['run', 'install-service', '--', '--output', unit], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    expect(install.stderr).not.toMatch(/\[install-service\]/);
    expect(install.status).toBe(0);
    expect(install.stdout).toContain('systemd-analyze verify: no findings.');
    const text = readFileSync(unit, 'utf8');
    expect(text).toContain(`ExecStart=${process.execPath} ${repoRoot}/scripts/start.mjs`);
    expect(text).toContain(`WorkingDirectory=${repoRoot}`);
    // The supervisor alone gets SIGTERM and stops its servers itself.
    expect(text).toMatch(/^KillMode=mixed$/m);
    // Checked again here, so that a systemd-analyze that finds fault fails this test itself.
    const verify = spawnSync('systemd-analyze', ['verify', unit], { encoding: 'utf8' });
    expect({ status: verify.status, output: `${verify.stdout}${verify.stderr}` }).toEqual({
      status: 0,
      output: '',
    });
  }, 30_000);

  it('refuses a clone path the unit could not name as it is', () => {
    expect(() => renderServiceUnit('/srv/my clone')).toThrow(/cannot name this path/);
    expect(() => renderServiceUnit('/srv/100%')).toThrow(/cannot name this path/);
  });
});
