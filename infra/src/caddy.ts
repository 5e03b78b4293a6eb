// Public mode's front door: Caddy terminates HTTPS on 443 (the operator's certificate files, or
// ACME), redirects HTTP on 80 to it, and proxies everything, WebSockets included, to the API on
// 127.0.0.1 (docs/operations.md, "Public mode").
import { execFile, execFileSync } from 'node:child_process';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, chown, mkdir, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { connect as tlsConnect } from 'node:tls';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { copyCertificate, type CertificateFiles } from './certificate-files.ts';
import { passwdEntry } from './data-dir.ts';
import { ensureDebianPackages } from './debian.ts';
import { startProcess, type ExitInfo, type ProcessInfo } from './process.ts';
import type { LogRotation } from './service-log.ts';
import { renderTemplate, TEMPLATES_DIR } from './template.ts';

/** Debian's caddy package makes this system user; Caddy never runs as root here. */
export const CADDY_USER = 'caddy';

/** The operator's certificate: PEM files, the chain's leaf first (as certbot's fullchain.pem). */
export type SiteTls = CertificateFiles;

const execFileAsync = promisify(execFile);

/** Options for {@link startCaddy}. */
export interface CaddyOptions {
  /** Instance folder (created if missing): the Caddyfile, certificate copies, ACME storage. */
  readonly dir: string;
  /** Caddy's output (its JSON log) is appended here. */
  readonly logFile: string;
  readonly logRotation?: LogRotation;
  /** The public host name browsers use, e.g. `calls.example.com`. */
  readonly host: string;
  readonly httpsPort: number;
  /** Plain HTTP: redirects to HTTPS (and ACME's HTTP-01 challenge). */
  readonly httpPort: number;
  /** The API's port on 127.0.0.1. */
  readonly upstreamPort: number;
  /** The operator's certificate; without it Caddy obtains one with ACME (Let's Encrypt). */
  readonly tls?: SiteTls;
  /** The ACME account's e-mail (expiry notices); optional. */
  readonly acmeEmail?: string;
  /** Deadline for readiness. Default 15000 ms. */
  readonly startTimeoutMs?: number;
}

/** A running Caddy started by {@link startCaddy}. */
export interface RunningCaddy {
  /** `https://<host>` (with the port unless 443): where browsers go. */
  readonly url: string;
  readonly httpsPort: number;
  readonly httpPort: number;
  readonly pid: number;
  readonly exited: Promise<ExitInfo>;
  /**
   * Takes the certificate files again (a renewal) without a restart: new copies, then a reload
   * through the admin socket, which keeps open connections. Rejects with Caddy's reason when
   * it refuses the new configuration (it then goes on with the old one).
   */
  reloadCertificate(): Promise<void>;
  /** Graceful stop (SIGTERM), SIGKILL after 5 s. Idempotent. */
  stop(): Promise<void>;
}

const HOST_NAME =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** Whether a process is the Caddy of the instance folder `dir` (a killed run's leftover). */
export function isCaddyOf(dir: string, proc: ProcessInfo): boolean {
  const flag = proc.args.indexOf('--config');
  return (
    proc.comm === 'caddy' && flag > 0 && proc.args[flag + 1] === join(resolve(dir), 'Caddyfile')
  );
}

/** The Caddyfile for these settings (`infra/templates/caddy/Caddyfile`). */
export function renderCaddyfile(settings: {
  host: string;
  httpsPort: number;
  httpPort: number;
  upstreamPort: number;
  storageDir: string;
  /** The admin endpoint's Unix socket (an absolute path). */
  adminSocket: string;
  tls?: SiteTls;
  acmeEmail?: string;
}): string {
  if (!HOST_NAME.test(settings.host)) {
    throw new Error(`${settings.host} is not a host name (a DNS name such as calls.example.com)`);
  }
  if (settings.acmeEmail !== undefined && !/^[^\s@{}]+@[^\s@{}]+$/.test(settings.acmeEmail)) {
    throw new Error(`${settings.acmeEmail} is not an e-mail address`);
  }
  const template = readFileSync(join(TEMPLATES_DIR, 'caddy', 'Caddyfile'), 'utf8');
  // Values with spaces, quotes or braces are refused by renderTemplate or the checks above, so
  // nothing can end a Caddyfile token or open a block.
  return renderTemplate(template, {
    SITE: settings.httpsPort === 443 ? settings.host : `${settings.host}:${settings.httpsPort}`,
    HTTP_PORT: settings.httpPort,
    HTTPS_PORT: settings.httpsPort,
    UPSTREAM_PORT: settings.upstreamPort,
    STORAGE_DIR: settings.storageDir,
    ADMIN_SOCKET: settings.adminSocket,
    TLS_CERT: settings.tls?.certFile,
    TLS_KEY: settings.tls?.keyFile,
    ACME_EMAIL: settings.acmeEmail,
  });
}

/** What {@link checkSiteCertificate} found: when the certificate ends, and who issued it. */
export type CertificateInfo = { validTo: Date; issuer: string };

/**
 * Checks the operator's certificate before Caddy sees it, so a wrong file is one clear message
 * instead of a TLS error in a browser: it must be PEM, name `host`, not have expired, and match
 * the key.
 */
export function checkSiteCertificate(tls: SiteTls, host: string): CertificateInfo {
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(readFileSync(tls.certFile));
  } catch (error) {
    throw new Error(`${tls.certFile} is not a readable PEM certificate (${String(error)})`);
  }
  let key: ReturnType<typeof createPrivateKey>;
  try {
    key = createPrivateKey(readFileSync(tls.keyFile));
  } catch (error) {
    throw new Error(`${tls.keyFile} is not a readable PEM private key (${String(error)})`);
  }
  if (!certificate.checkPrivateKey(key)) {
    throw new Error(`${tls.keyFile} is not the key of the certificate ${tls.certFile}`);
  }
  if (certificate.checkHost(host) === undefined) {
    throw new Error(
      `the certificate ${tls.certFile} is not for ${host} (it names ${certificate.subjectAltName ?? certificate.subject})`,
    );
  }
  const validTo = new Date(certificate.validTo);
  if (validTo.getTime() <= Date.now()) {
    throw new Error(`the certificate ${tls.certFile} expired on ${validTo.toISOString()}`);
  }
  return { validTo, issuer: certificate.issuer.replaceAll('\n', ', ') };
}

/**
 * Installs Debian's caddy when absent. The package enables a machine-wide Caddy on port 80
 * where systemd runs; ours replaces it, so the one just installed is stopped and disabled
 * (one installed before us is left alone: then the port check below names it).
 */
export function ensureCaddy(log: (line: string) => void): void {
  const before = existsSync('/usr/bin/caddy');
  ensureDebianPackages(['caddy'], log);
  if (before || !existsSync('/run/systemd/system')) return;
  try {
    execFileSync('systemctl', ['disable', '--now', 'caddy.service'], { stdio: 'ignore' });
    log("Disabled Debian's own caddy service: Frontdesk runs its own.");
  } catch {
    log("Could not disable Debian's caddy service (systemctl disable --now caddy).");
  }
}

/** Fails with the reason when a TCP port cannot be listened on (taken, or needs root). */
function assertPortFree(port: number, what: string): Promise<void> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) =>
      fail(
        new Error(
          error.code === 'EADDRINUSE'
            ? `port ${port} (${what}) is taken by another program; stop it (Debian's own web ` +
                'servers: systemctl disable --now caddy, or apache2, nginx)'
            : `cannot listen on port ${port} (${what}): ${error.message}` +
                (error.code === 'EACCES' ? '; ports under 1024 need root' : ''),
        ),
      ),
    );
    server.listen({ port, exclusive: true }, () => server.close(() => done()));
  });
}

/** The status and Location of a plain-HTTP request to Caddy, as a browser's for `host` would be. */
function httpProbe(port: number, host: string): Promise<{ status: number; location?: string }> {
  return new Promise((done, fail) => {
    const probe = request(
      { host: '127.0.0.1', port, path: '/', headers: { host }, timeout: 2000 },
      (response) => {
        response.resume();
        done({
          status: response.statusCode ?? 0,
          ...(response.headers.location ? { location: response.headers.location } : {}),
        });
      },
    );
    probe.on('timeout', () => probe.destroy(new Error('no answer in 2 s')));
    probe.on('error', fail);
    probe.end();
  });
}

/** Whether Caddy completes a TLS handshake for `host` (any certificate: this only asks if it serves). */
function tlsProbe(port: number, host: string): Promise<boolean> {
  return new Promise((done) => {
    const socket = tlsConnect({
      host: '127.0.0.1',
      port,
      servername: host,
      rejectUnauthorized: false,
    });
    socket.setTimeout(2000, () => socket.destroy());
    socket.once('secureConnect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
    socket.once('close', () => done(false));
  });
}

/**
 * Renders the Caddyfile into `options.dir` and runs `caddy run` in the foreground. As root it
 * runs as the `caddy` user with only the right to bind ports under 1024 (`setpriv`, as
 * Debian's own unit does with AmbientCapabilities), reading copies of the certificate files that
 * it owns. Resolves once plain HTTP answers with the redirect and, with certificate files, TLS
 * handshakes succeed; with ACME the certificate may still be on its way (its progress is in the
 * log).
 */
export async function startCaddy(options: CaddyOptions): Promise<RunningCaddy> {
  const dir = resolve(options.dir);
  const storageDir = join(dir, 'data');
  await mkdir(storageDir, { recursive: true });
  await assertPortFree(options.httpsPort, 'HTTPS');
  await assertPortFree(options.httpPort, 'HTTP');

  const user = process.getuid?.() === 0 ? passwdEntry(CADDY_USER) : undefined;
  if (process.getuid?.() === 0 && !user) {
    throw new Error(`no ${CADDY_USER} user: is Debian's caddy package installed?`);
  }
  // Caddy reads its own copies: the operator's files may sit where its user cannot enter, and
  // a certificate renewed in place is taken by reloadCertificate, never half-written.
  const tls = options.tls
    ? { certFile: join(dir, 'site.crt'), keyFile: join(dir, 'site.key') }
    : undefined;
  if (options.tls && tls) await copyCertificate(options.tls, tls, user);
  const config = join(dir, 'Caddyfile');
  const adminSocket = join(dir, 'admin.sock');
  // One a killed Caddy left would keep the new one from listening.
  await rm(adminSocket, { force: true });
  await writeFile(
    config,
    renderCaddyfile({
      host: options.host,
      httpsPort: options.httpsPort,
      httpPort: options.httpPort,
      upstreamPort: options.upstreamPort,
      storageDir,
      adminSocket,
      ...(tls ? { tls } : {}),
      ...(options.acmeEmail ? { acmeEmail: options.acmeEmail } : {}),
    }),
    { mode: 0o600 },
  );
  if (user) {
    // SECURITY: the key and ACME's account and certificates are Caddy's alone.
    for (const path of [dir, storageDir, config]) await chown(path, user.uid, user.gid);
    await chmod(dir, 0o700);
  }

  const caddy = ['run', '--config', config, '--adapter', 'caddyfile'];
  // Caddy keeps its autosaved config and state under the XDG folders: inside its own.
  const caddyEnv = {
    PATH: process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin',
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, 'config'),
    XDG_DATA_HOME: storageDir,
  };
  const proc = await startProcess({
    name: 'caddy',
    ...(user
      ? {
          // setpriv execs Caddy in place: the supervised PID is Caddy's own.
          command: 'setpriv',
          args: [
            `--reuid=${user.uid}`,
            `--regid=${user.gid}`,
            '--clear-groups',
            '--inh-caps=-all,+net_bind_service',
            '--ambient-caps=-all,+net_bind_service',
            '--',
            'caddy',
            ...caddy,
          ],
        }
      : { command: 'caddy', args: caddy }),
    logFile: options.logFile,
    ...(options.logRotation ? { logRotation: options.logRotation } : {}),
    cwd: dir,
    env: caddyEnv,
  });
  const httpsPort = options.httpsPort;
  try {
    await proc.waitUntilReady(
      async () => {
        const { status, location } = await httpProbe(options.httpPort, options.host);
        if (status < 300 || status > 399 || !location?.startsWith('https://')) {
          throw new Error(`HTTP answered ${status} ${location ?? ''}, not a redirect to HTTPS`);
        }
        return !options.tls || (await tlsProbe(httpsPort, options.host));
      },
      { timeoutMs: options.startTimeoutMs ?? 15_000, intervalMs: 50 },
    );
  } catch (error) {
    await proc.stop().catch(() => undefined);
    throw error;
  }
  return {
    url: `https://${options.host}${httpsPort === 443 ? '' : `:${httpsPort}`}`,
    httpsPort,
    httpPort: options.httpPort,
    pid: proc.pid,
    exited: proc.exited,
    async reloadCertificate() {
      if (!options.tls || !tls) return;
      await copyCertificate(options.tls, tls, user);
      // --force: the configuration is the same text; what changed is the files it names.
      await execFileAsync(
        'caddy',
        ['reload', '--config', config, '--adapter', 'caddyfile', '--force'],
        { env: caddyEnv, timeout: 15_000 },
      ).catch((error: { stderr?: string; message: string }) => {
        throw new Error(`Caddy refused the renewed certificate: ${error.stderr || error.message}`);
      });
    },
    stop: () => proc.stop(),
  };
}
