// Plain JavaScript on purpose: it runs before any dependency is installed.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    console.error(`Frontdesk needs Node.js 20.19 or newer; this is ${process.versions.node}.`);
    process.exit(1);
  }
}

/**
 * Installs npm packages when node_modules is absent (`npm ci`) or older than package-lock.json
 * (`npm install`, which updates in place rather than wiping a tree other processes may be using).
 */
function ensureNodeModules() {
  const lock = join(repoRoot, 'package-lock.json');
  const stamp = join(repoRoot, 'node_modules', '.frontdesk-lock-hash');
  const want = createHash('sha256').update(readFileSync(lock)).digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return;
  console.log('Installing npm packages…');
  const command = existsSync(join(repoRoot, 'node_modules')) ? 'install' : 'ci';
  const result = spawnSync('npm', [command, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: repoRoot,
    stdio: 'inherit',
    // Playwright is used with Debian's Chromium; it must never download a browser.
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });
  if (result.status !== 0) {
    console.error(`npm ${command} failed: is the npm registry reachable? See the messages above.`);
    process.exit(result.status ?? 1);
  }
  writeFileSync(stamp, want);
}

/** Makes sure dependencies are in place, then loads a TypeScript entry point through tsx. */
export async function runTypeScript(entry) {
  checkNode();
  ensureNodeModules();
  const { register } = await import('tsx/esm/api');
  register();
  await import(join(repoRoot, entry));
}
