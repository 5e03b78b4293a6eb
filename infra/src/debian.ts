import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** What `npm start` needs from Debian (spec servers, the TURN relay, recordings). */
export const RUNTIME_PACKAGES = [
  'postgresql',
  'janus',
  'janus-tools',
  'ejabberd',
  'coturn',
  'ffmpeg',
];
// Tests also need a browser. Emoji ratings and icons need a colour emoji font to be seen in the
// journeys' screenshots, and the Arabic pages the Noto fonts (Noto Sans Arabic) that the apps'
// font stacks name, as a visitor's phone has them; the TURN journeys take UDP away from the
// guest's browser with nftables.
export const TEST_PACKAGES = [
  'chromium',
  'iproute2',
  'util-linux',
  'fonts-noto-color-emoji',
  'fonts-noto-core',
  'nftables',
  // Public mode's HTTPS front (infra/test/caddy.test.ts, e2e/tests/public-https.spec.ts).
  'caddy',
  // The simulated cluster's load balancer (infra/src/cluster, e2e/cluster, the cluster bench).
  'haproxy',
];

function installed(pkg: string): boolean {
  const result = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return result.status === 0 && result.stdout.includes('install ok installed');
}

/**
 * Installs the Debian packages that are absent (apt-get update first). Throws an error that says
 * what to do when it cannot: not root and no sudo, or the package archive unreachable.
 */
export function ensureDebianPackages(packages: readonly string[], log: (line: string) => void) {
  const missing = packages.filter((p) => !installed(p));
  if (missing.length === 0) return;
  const isRoot = process.getuid?.() === 0;
  const hasSudo = spawnSync('sudo', ['-n', 'true']).status === 0;
  if (!isRoot && !hasSudo) {
    throw new Error(
      `Missing Debian packages: ${missing.join(' ')}. Run as root, or install them with\n` +
        `  sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}`,
    );
  }
  const run = (args: string[]) => {
    const [command, ...rest] = isRoot ? args : ['sudo', '-n', ...args];
    execFileSync(command as string, rest, {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  };
  log(`Installing Debian packages: ${missing.join(' ')} (about a minute on first run)…`);
  try {
    run(['apt-get', 'update']);
    run(['apt-get', 'install', '-y', ...missing]);
  } catch (error) {
    throw new Error(
      `apt-get could not install ${missing.join(' ')}: is Debian's package archive reachable?`,
      { cause: error },
    );
  }
  // Debian's coturn enables a machine-wide coturn (/etc/turnserver.conf, no credentials set) on
  // 3478; the stack runs its own with our configuration, so the one we just installed is stopped
  // and disabled. Only where systemd runs; a coturn installed before us is left alone.
  if (missing.includes('coturn') && existsSync('/run/systemd/system')) {
    try {
      run(['systemctl', 'disable', '--now', 'coturn.service']);
      log("Disabled Debian's own coturn service: the stack runs its own.");
    } catch {
      log("Could not disable Debian's coturn service (systemctl disable --now coturn).");
    }
  }
}
