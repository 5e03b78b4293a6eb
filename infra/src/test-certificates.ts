// For tests of public mode (infra/test/caddy.test.ts, e2e/tests/public-https.spec.ts): a
// throw-away certificate authority and a server certificate it signed, made with openssl, so
// HTTPS is checked against a trusted chain rather than with verification turned off.
import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type TestCertificates = {
  /** The authority's certificate (PEM): what a client must trust. */
  caFile: string;
  ca: string;
  /** The server's certificate and the authority's, in one PEM file (leaf first), and its key. */
  certFile: string;
  keyFile: string;
  /**
   * base64 SHA-256 of the authority's SubjectPublicKeyInfo: Chromium trusts chains that contain
   * it with `--ignore-certificate-errors-spki-list=<this>`.
   */
  caSpki: string;
};

/** Writes a P-256 authority and a certificate for `hosts` into `dir` (valid `days` days). */
export function makeTestCertificates(
  dir: string,
  hosts: readonly string[],
  days = 2,
): TestCertificates {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const file = (name: string) => join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.crt'),
    '-days',
    String(days),
    '-subj',
    '/CN=Frontdesk test authority',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign',
  );
  openssl(
    'req',
    ...ec,
    '-keyout',
    file('site.key'),
    '-out',
    file('site.csr'),
    '-subj',
    `/CN=${hosts[0]}`,
  );
  writeFileSync(
    file('site.ext'),
    [
      `subjectAltName=${hosts.map((host) => `DNS:${host}`).join(',')}`,
      'basicConstraints=CA:FALSE',
      'keyUsage=critical,digitalSignature',
      'extendedKeyUsage=serverAuth',
    ].join('\n'),
  );
  openssl(
    'x509',
    '-req',
    '-in',
    file('site.csr'),
    '-CA',
    file('ca.crt'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    file('site.crt'),
    '-days',
    String(days),
    '-extfile',
    file('site.ext'),
  );
  const ca = readFileSync(file('ca.crt'), 'utf8');
  // As operators get them (certbot's fullchain.pem): the leaf, then the chain up to the
  // authority. Chromium matches its SPKI list against the chain the server presents.
  writeFileSync(file('fullchain.crt'), readFileSync(file('site.crt'), 'utf8') + ca);
  const spki = new X509Certificate(ca).publicKey.export({ type: 'spki', format: 'der' });
  return {
    caFile: file('ca.crt'),
    ca,
    certFile: file('fullchain.crt'),
    keyFile: file('site.key'),
    caSpki: createHash('sha256').update(spki).digest('base64'),
  };
}
