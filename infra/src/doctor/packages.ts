import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fail, ok, type Check } from '@frontdesk/api/doctor';
import { RUNTIME_PACKAGES } from '../debian.ts';

const run = promisify(execFile);

/** The Debian packages `npm start` runs on; coturn for TURN and, in public mode, Caddy. */
export function neededPackages(publicMode: boolean): string[] {
  return [...new Set([...RUNTIME_PACKAGES, 'coturn', ...(publicMode ? ['caddy'] : [])])];
}

/** Which of `packages` dpkg reports installed (`ii`), in one call. */
export async function installedPackages(packages: readonly string[]): Promise<Set<string>> {
  // dpkg-query exits 1 when a package is unknown, with the others still listed on stdout.
  const output = await run('dpkg-query', ['-W', '-f=${Package} ${db:Status-Abbrev}\n', ...packages])
    .then((result) => result.stdout)
    .catch((error: { stdout?: unknown }) => (typeof error.stdout === 'string' ? error.stdout : ''));
  const installed = new Set<string>();
  for (const line of output.split('\n')) {
    const [name, status] = line.trim().split(/\s+/);
    if (name && status?.startsWith('ii')) installed.add(name.replace(/:.*$/, ''));
  }
  return installed;
}

export function packageChecks(publicMode: boolean): Check[] {
  const wanted = neededPackages(publicMode);
  return [
    {
      id: 'debian.packages',
      title: 'Debian packages',
      fixOnError: `apt-get install -y ${wanted.join(' ')}`,
      run: async () => {
        const installed = await installedPackages(wanted);
        const missing = wanted.filter((p) => !installed.has(p));
        return missing.length === 0
          ? ok(`installed: ${wanted.join(', ')}`)
          : fail(
              `missing: ${missing.join(', ')}`,
              `npm start installs them, or: apt-get update && apt-get install -y ${missing.join(' ')}`,
            );
      },
    },
  ];
}
