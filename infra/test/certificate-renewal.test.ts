// A renewal of the operator's certificate files while the whole stack runs in public mode: Caddy
// and coturn serve the new certificate within a check, with no restart.
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startDisposableStack, type DisposableStack } from '../src/disposable-stack.ts';
import { freePort } from '../src/process.ts';
import { makeTestCertificates } from '../src/test-certificates.ts';
import { tempDir } from './helpers.ts';

const HOST = 'calls.frontdesk.test';
let dir: Awaited<ReturnType<typeof tempDir>>;
let stack: DisposableStack;
let certFile: string;
const log: string[] = [];

beforeAll(async () => {
  dir = await tempDir('frontdesk-certificate-renewal-');
  const certs = makeTestCertificates(dir.path, [HOST]);
  certFile = certs.certFile;
  const tls = { certFile: certs.certFile, keyFile: certs.keyFile };
  stack = await startDisposableStack({
    name: 'renewal',
    logLevel: 'warn',
    log: (line) => log.push(line),
    publicSite: { host: HOST, httpsPort: await freePort(), httpPort: await freePort(), tls },
    turnTls: tls,
    certificateCheckMs: 200,
  });
}, 90_000);

afterAll(async () => {
  await stack?.stop();
  await dir?.remove();
}, 30_000);

/** The SHA-256 fingerprint of the certificate a TLS server on 127.0.0.1:`port` presents. */
function served(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: '127.0.0.1',
      port,
      servername: HOST,
      rejectUnauthorized: false,
    });
    socket.once('secureConnect', () => {
      resolve(socket.getPeerCertificate().fingerprint256);
      socket.destroy();
    });
    socket.once('error', reject);
  });
}

const fingerprintOf = (file: string) => new X509Certificate(readFileSync(file)).fingerprint256;

describe('renewed certificate files', () => {
  it('are served by Caddy and coturn within a check, without a restart', async () => {
    const https = Number(new URL(stack.publicUrl ?? '').port);
    const turns = Number(/^turns:[^:]+:(\d+)/.exec(stack.turn.urls.at(-1) ?? '')?.[1]);
    const { proxy, turn } = stack.pids;
    const first = fingerprintOf(certFile);
    expect([await served(https), await served(turns)]).toEqual([first, first]);

    // Renewed in place, under the same names: a new certificate and key.
    const renewed = makeTestCertificates(dir.path, [HOST]);
    const next = fingerprintOf(renewed.certFile);
    expect(next).not.toBe(first);

    await vi.waitFor(
      async () =>
        expect([await served(https), await served(turns)], log.join('\n')).toEqual([next, next]),
      { timeout: 10_000, interval: 200 },
    );
    expect(stack.pids).toMatchObject({ proxy, turn });
    expect(log).toContain(`Caddy serves the renewed certificate from ${renewed.certFile}.`);
    expect(log).toContain(`coturn serves the renewed certificate from ${renewed.certFile}.`);
  }, 30_000);
});
