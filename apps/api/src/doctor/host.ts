import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, stat, statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fail, ok, warn, worst, type Check, type Outcome } from './check.ts';
import { endpoint, peek, type PublicUrlTarget } from './public-url.ts';

const run = promisify(execFile);
const GB = 1024 ** 3;

/** When free space of the data folder's disk is a WARN, and when a FAIL (recordings stop). */
export type DiskLimits = { warnBelowBytes: number; warnBelowRatio: number; failBelowBytes: number };
export const DISK_LIMITS: DiskLimits = {
  warnBelowBytes: 5 * GB,
  warnBelowRatio: 0.1,
  failBelowBytes: 1 * GB,
};

const gb = (bytes: number) => `${(bytes / GB).toFixed(1)} GB`;

export async function checkDiskSpace(dir: string, limits = DISK_LIMITS): Promise<Outcome> {
  const fs = await statfs(dir);
  // bavail, not bfree: the blocks reserved for root are not ours unless we are root.
  const free = fs.bavail * fs.bsize;
  const total = fs.blocks * fs.bsize;
  const ratio = total === 0 ? 1 : free / total;
  const detail = `${gb(free)} free of ${gb(total)} (${Math.round(ratio * 100)} %) for ${dir}`;
  const fix = `Free space on that disk (old recordings in recordings/, logs in logs/) or move the data folder to a larger one (FRONTDESK_DATA_DIR).`;
  if (free < limits.failBelowBytes) return fail(detail, fix);
  if (free < limits.warnBelowBytes || ratio < limits.warnBelowRatio) return warn(detail, fix);
  return ok(detail);
}

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(3, '0');

/**
 * The modes `npm start` gives the data folder (infra/src/data-dir.ts): the root 0711 (the
 * servers' users pass through, nobody lists it), `secrets.json` 0600, uploads and logs 0700.
 * A looser mode leaks guests' files or the secrets; a folder we cannot write stops the servers.
 */
export async function checkDataDirPermissions(dir: string): Promise<Outcome> {
  const root = await stat(dir).catch(() => undefined);
  if (!root?.isDirectory()) {
    return fail(`${dir} does not exist`, `Run npm start once: it creates the data folder.`);
  }
  const looks: Outcome[] = [];
  const uid = process.getuid?.();
  if (uid !== undefined && root.uid !== uid) {
    looks.push(
      warn(
        `${dir} belongs to uid ${root.uid}, not to this user (${uid})`,
        `Run npm start and npm run doctor as the user that owns the data folder.`,
      ),
    );
  }
  const writable = await access(dir, constants.W_OK).then(
    () => true,
    () => false,
  );
  if (!writable) {
    looks.push(fail(`${dir} is not writable`, `chown -R $(id -u) ${dir}`));
  }
  if (root.mode & 0o022) {
    looks.push(fail(`${dir} is ${octal(root.mode)}: others may write in it`, `chmod 711 ${dir}`));
  } else if (root.mode & 0o044) {
    looks.push(warn(`${dir} is ${octal(root.mode)}: others may list it`, `chmod 711 ${dir}`));
  }
  const privateFiles: [string, number][] = [
    ['secrets.json', 0o600],
    ['uploads', 0o700],
    ['logs', 0o700],
  ];
  for (const [name, wanted] of privateFiles) {
    const path = join(dir, name);
    const entry = await stat(path).catch(() => undefined);
    if (entry && entry.mode & 0o077) {
      looks.push(
        fail(
          `${name} is ${octal(entry.mode)}: others may read it`,
          `chmod ${octal(wanted)} ${path}`,
        ),
      );
    }
  }
  if (looks.length === 0) return ok(`${dir}: ${octal(root.mode)}, owned by this user`);
  return worst(looks);
}

/** Clocks apart by more than this are a WARN (a second of Date's resolution, and the trip). */
const SKEW_WARN_SECONDS = 10;
/** Certificates and relay credentials are checked against the clock: this much breaks them. */
const SKEW_FAIL_SECONDS = 300;
const ntpFix = `Keep the clock synchronised: apt-get install systemd-timesyncd (or chrony).`;

/** What the operating system says of NTP synchronisation, offline: systemd, then chrony. */
async function ntpStatus(): Promise<Outcome | undefined> {
  const timedated = await run('timedatectl', ['show', '-p', 'NTPSynchronized', '--value'], {
    timeout: 3000,
  }).catch(() => undefined);
  const answer = timedated?.stdout.trim();
  if (answer === 'yes') return ok('systemd says the clock is synchronised by NTP');
  if (answer === 'no') return warn('systemd says the clock is not synchronised by NTP', ntpFix);
  const chrony = await run('chronyc', ['-n', 'tracking'], { timeout: 3000 }).catch(() => undefined);
  const leap = /^Leap status\s*:\s*(.+)$/m.exec(chrony?.stdout ?? '')?.[1]?.trim();
  if (leap === 'Normal') return ok('chrony says the clock is synchronised');
  if (leap !== undefined) return warn(`chrony's leap status is ${leap}`, ntpFix);
  return undefined;
}

/** This clock against the `Date` header of the public URL (whole seconds), half the trip allowed. */
async function dateHeaderSkew(target: PublicUrlTarget): Promise<Outcome | undefined> {
  const at = endpoint(target);
  const sent = Date.now();
  const answer = await peek(target.url, {
    host: at.host,
    port: at.httpsPort,
    ...(target.ca ? { ca: target.ca } : {}),
    timeoutMs: target.timeoutMs ?? 5000,
  }).catch(() => undefined);
  const date = answer?.headers.date === undefined ? NaN : Date.parse(answer.headers.date);
  if (Number.isNaN(date)) return undefined;
  const received = Date.now();
  const skew = Math.round(((sent + received) / 2 - date) / 1000);
  const detail = `${Math.abs(skew)} s ${skew >= 0 ? 'ahead of' : 'behind'} the Date of ${target.url.origin}`;
  if (Math.abs(skew) >= SKEW_FAIL_SECONDS) return fail(detail, ntpFix);
  if (Math.abs(skew) >= SKEW_WARN_SECONDS) return warn(detail, ntpFix);
  return ok(detail);
}

/**
 * Whether this machine's clock can be trusted, by what is at hand offline: the operating
 * system's NTP status and, with a public URL, its `Date` header. When Caddy on this machine
 * serves that URL, the header comes from this same clock and only shows they agree; the NTP
 * status is then what counts (and the console compares the server with the browser).
 */
export function clockCheck(target?: PublicUrlTarget): Check {
  return {
    id: 'clock',
    title: 'Clock',
    fixOnError: ntpFix,
    run: async () => {
      const looks = (
        await Promise.all([ntpStatus(), target ? dateHeaderSkew(target) : undefined])
      ).filter((look): look is Outcome => look !== undefined);
      if (looks.length > 0) return worst(looks);
      return warn(
        'cannot tell whether the clock is synchronised (no timedatectl or chronyc answer, no public URL to compare with)',
        ntpFix,
      );
    },
  };
}

/** Disk space and permissions of the data folder. */
export function dataDirChecks(dir: string, limits = DISK_LIMITS): Check[] {
  return [
    {
      id: 'data-dir.disk',
      title: 'Disk space of the data folder',
      run: () => checkDiskSpace(dir, limits),
      fixOnError: `Create the data folder (npm start does) or set FRONTDESK_DATA_DIR to it.`,
    },
    {
      id: 'data-dir.permissions',
      title: 'Data folder permissions',
      run: () => checkDataDirPermissions(dir),
      fixOnError: `Run npm run doctor as the user that runs npm start.`,
    },
  ];
}
