// The self-test's checks against real things made here: TLS and HTTP servers with certificates
// of our own, a data folder, and Debian's coturn with the TURN REST secret.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type RequestListener } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkDataDirPermissions,
  checkDiskSpace,
  publicUrlChecks,
  runChecks,
} from '@frontdesk/api/doctor';
import { stunAnswers } from '../src/coturn.ts';
import { ensureDebianPackages } from '../src/debian.ts';
import { formatReport, loadDoctorSettings } from '../src/doctor/index.ts';
import { turnAllocationChecks } from '../src/doctor/turn.ts';
import { freePort } from '../src/process.ts';
import { selfSignedCertificate, tempDir } from './helpers.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
const servers: Server[] = [];

/** A self-signed certificate for `name`, valid for `days`. */
const certificate = (name: string, days: number) =>
  selfSignedCertificate(join(dir.path, `${name}-${days}`), name, days);

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** HTTPS with `tls`, and plain HTTP answering as `plain` does, as Caddy would serve them. */
async function publicSide(tls: { cert: string; key: string }, plain: RequestListener) {
  const httpsPort = await listen(createTlsServer(tls, (_req, res) => res.writeHead(200).end('ok')));
  const httpPort = await listen(createHttpServer(plain));
  return { host: '127.0.0.1', httpsPort, httpPort };
}

/** One check of the public URL `https://localhost`, served by `tls` and `plain` here. */
async function publicCheck(
  id: string,
  tls: { cert: string; key: string },
  { plain = redirectToHttps, ca = tls.cert }: { plain?: RequestListener; ca?: string | null } = {},
) {
  const checks = publicUrlChecks({
    url: new URL('https://localhost'),
    connectTo: await publicSide(tls, plain),
    ...(ca === null ? {} : { ca }),
  });
  const [result] = await runChecks(checks.filter((check) => check.id === id));
  return result;
}

const redirectToHttps: RequestListener = (req, res) =>
  res.writeHead(308, { location: `https://${req.headers.host}${req.url}` }).end();

beforeAll(async () => {
  dir = await tempDir('frontdesk-doctor-test-');
});

afterAll(async () => {
  for (const server of servers) server.close();
  await dir?.remove();
});

describe('public URL', () => {
  it('warns, with the fix, about a certificate that expires within 14 days', async () => {
    const tls = await certificate('localhost', 3);
    const checks = await runChecks(
      publicUrlChecks({
        url: new URL('https://localhost'),
        connectTo: await publicSide(tls, redirectToHttps),
        ca: tls.cert,
      }),
    );
    const byId = Object.fromEntries(checks.map((c) => [c.id, c]));
    expect(byId['public-url.certificate']).toMatchObject({ status: 'warn' });
    expect(byId['public-url.certificate']?.detail).toMatch(/expires in [23] days/);
    expect(byId['public-url.certificate']?.fix).toMatch(/renew/);
    expect(byId['public-url.redirect']).toMatchObject({ status: 'ok' });
    // localhost resolves to loopback: this machine's, but nobody else reaches it.
    expect(byId['public-url.dns']).toMatchObject({ status: 'warn' });

    const printed = formatReport(checks, ['the firewall']);
    expect(printed).toMatch(/^WARN {2}HTTPS certificate/m);
    expect(printed).toMatch(/fix: Caddy renews/);
    expect(printed).toMatch(/1 OK, 2 WARN, 0 FAIL$/);
  });

  it('passes a certificate valid for months, and fails one for another name or untrusted', async () => {
    const good = await certificate('localhost', 90);
    const valid = await publicCheck('public-url.certificate', good);
    expect(valid).toMatchObject({ status: 'ok' });
    expect(valid?.detail).toMatch(/valid for localhost until .* \((89|90) days\)/);

    const other = await certificate('elsewhere.test', 90);
    const wrongName = await publicCheck('public-url.certificate', other);
    expect(wrongName).toMatchObject({ status: 'fail' });
    expect(wrongName?.fix).toMatch(/FRONTDESK_PUBLIC_URL/);

    const untrusted = await publicCheck('public-url.certificate', good, { ca: null });
    expect(untrusted).toMatchObject({ status: 'fail' });
    expect(untrusted?.detail).toMatch(/SELF_SIGNED/);
  });

  it('fails HTTP that does not redirect to HTTPS', async () => {
    const redirect = await publicCheck('public-url.redirect', await certificate('localhost', 90), {
      plain: (_req, res) => res.writeHead(200).end('hello'),
    });
    expect(redirect).toMatchObject({ status: 'fail' });
    expect(redirect?.detail).toMatch(/answers 200 without redirecting/);
    expect(redirect?.fix).toMatch(/port 80/);
  });
});

describe('data folder', () => {
  it('reports free space, and warns below the limits', async () => {
    expect(await checkDiskSpace(dir.path)).toMatchObject({ status: 'ok' });
    const low = await checkDiskSpace(dir.path, {
      warnBelowBytes: Number.MAX_SAFE_INTEGER,
      warnBelowRatio: 0.1,
      failBelowBytes: 0,
    });
    expect(low).toMatchObject({ status: 'warn' });
    expect(low.status !== 'ok' && low.fix).toMatch(/recordings/);
  });

  it('passes the modes npm start sets, and fails secrets others may read', async () => {
    const data = join(dir.path, 'data');
    await mkdir(join(data, 'uploads'), { recursive: true, mode: 0o700 });
    await mkdir(join(data, 'logs'), { recursive: true, mode: 0o700 });
    await chmod(data, 0o711);
    await writeFile(join(data, 'secrets.json'), '{}', { mode: 0o600 });
    expect(await checkDataDirPermissions(data)).toMatchObject({ status: 'ok' });

    await chmod(join(data, 'secrets.json'), 0o644);
    const loose = await checkDataDirPermissions(data);
    expect(loose).toMatchObject({ status: 'fail' });
    expect(loose.status !== 'ok' && loose.fix).toBe(`chmod 600 ${join(data, 'secrets.json')}`);
  });

  it('takes coturn’s and Janus’s ports from the files the last npm start rendered', async () => {
    const data = join(dir.path, 'rendered');
    await mkdir(join(data, 'coturn'), { recursive: true });
    await mkdir(join(data, 'janus'), { recursive: true });
    await writeFile(
      join(data, 'coturn', 'turnserver.conf'),
      'listening-port=3479\nmin-port=49152\nmax-port=49651\nno-tls\n',
    );
    await writeFile(
      join(data, 'janus', 'janus.jcfg'),
      'media: {\n\trtp_port_range = "21000-21100"\n\tnat_1_1_mapping = "203.0.113.9"\n}\n',
    );
    await writeFile(join(data, 'secrets.json'), JSON.stringify({ turnSecret: 'x'.repeat(32) }));
    await mkdir(join(data, 'caddy'));
    await writeFile(
      join(data, 'caddy', 'Caddyfile'),
      '{\n\thttp_port 8081\n\thttps_port 8443\n}\n',
    );
    const settings = await loadDoctorSettings({ FRONTDESK_DATA_DIR: data }, '/nowhere');
    expect(settings.web).toEqual({ httpPort: 8081, httpsPort: 8443 });
    expect(settings.turn).toMatchObject({ port: 3479, tlsPort: undefined, secret: 'x'.repeat(32) });
    expect(settings.janus).toMatchObject({ rtpPorts: [21000, 21100], natPublicIp: '203.0.113.9' });
  });
});

describe('TURN relay allocation (Debian coturn)', () => {
  const secret = randomBytes(18).toString('base64url');
  let coturn: ChildProcess | undefined;
  let ports: { port: number; tlsPort: number };
  let tls: { cert: string; key: string };

  beforeAll(async () => {
    ensureDebianPackages(['coturn'], (line) => console.log(line));
    tls = await certificate('localhost', 30);
    const folder = join(dir.path, 'coturn');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'turn.crt'), tls.cert);
    await writeFile(join(folder, 'turn.key'), tls.key, { mode: 0o600 });
    ports = { port: await freePort(), tlsPort: await freePort() };
    const relay = 40000 + Math.floor(Math.random() * 10000);
    coturn = spawn(
      'turnserver',
      [
        '-n',
        '--use-auth-secret',
        `--static-auth-secret=${secret}`,
        '--realm=doctor.test',
        '--listening-ip=127.0.0.1',
        `--listening-port=${ports.port}`,
        `--tls-listening-port=${ports.tlsPort}`,
        `--cert=${join(folder, 'turn.crt')}`,
        `--pkey=${join(folder, 'turn.key')}`,
        `--min-port=${relay}`,
        `--max-port=${relay + 50}`,
        '--no-dtls',
        '--no-cli',
        `--pidfile=${join(folder, 'turnserver.pid')}`,
        `--userdb=${join(folder, 'turndb')}`,
        '--log-file=stdout',
        '--simple-log',
      ],
      { stdio: 'ignore' },
    );
    const deadline = Date.now() + 10_000;
    while (!(await stunAnswers('127.0.0.1', ports.port, 300))) {
      if (Date.now() > deadline) throw new Error('coturn did not answer STUN within 10 s');
    }
  });

  afterAll(() => {
    coturn?.kill('SIGTERM');
  });

  it('allocates a relay over UDP, TCP and TLS with the right secret', async () => {
    const checks = await runChecks(
      turnAllocationChecks({
        host: '127.0.0.1',
        ...ports,
        secret,
        servername: 'localhost',
        ca: tls.cert,
      }),
    );
    expect(checks.map((c) => [c.id, c.status])).toEqual([
      ['turn.udp', 'ok'],
      ['turn.tcp', 'ok'],
      ['turn.tls', 'ok'],
    ]);
    expect(checks[0]?.detail).toMatch(/relay 127\.0\.0\.1:\d+ allocated/);
  });

  it('fails with the fix when the secret is wrong', async () => {
    const checks = await runChecks(
      turnAllocationChecks({
        host: '127.0.0.1',
        ...ports,
        secret: randomBytes(18).toString('base64url'),
        servername: 'localhost',
        ca: tls.cert,
      }),
    );
    expect(checks.map((c) => c.status)).toEqual(['fail', 'fail', 'fail']);
    for (const check of checks) {
      expect(check.detail).toMatch(/401/);
      expect(check.fix).toMatch(/TURN secret differs/);
    }
  });

  it('fails TLS whose certificate is not for the public name', async () => {
    const [tlsCheck] = await runChecks(
      turnAllocationChecks({
        host: '127.0.0.1',
        ...ports,
        secret,
        servername: 'calls.example.com',
        ca: tls.cert,
      }).filter((c) => c.id === 'turn.tls'),
    );
    expect(tlsCheck).toMatchObject({ status: 'fail' });
    expect(tlsCheck?.detail).toMatch(/altnames|does not match/i);
  });
});
