import { execFileSync, spawnSync } from 'node:child_process';

/** What `npm start` needs from Debian (spec servers, recordings); tests also need a browser. */
export const RUNTIME_PACKAGES = ['postgresql', 'janus', 'janus-tools', 'ejabberd', 'ffmpeg'];
// Emoji ratings and icons need a colour emoji font to be seen in the journeys' screenshots.
export const TEST_PACKAGES = ['chromium', 'iproute2', 'util-linux', 'fonts-noto-color-emoji'];

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
}
