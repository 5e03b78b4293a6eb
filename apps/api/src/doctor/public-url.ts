import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { checkServerIdentity, connect } from 'node:tls';
import { fail, ok, warn, type Check, type Outcome } from './check.ts';

/** A certificate that ends sooner than this is a WARN: a renewal that keeps failing shows in time. */
export const CERTIFICATE_WARN_DAYS = 14;
const DAY_MS = 24 * 3600 * 1000;

/** The public URL as browsers reach it (`FRONTDESK_PUBLIC_URL`), and how to look at it. */
export type PublicUrlTarget = {
  url: URL;
  /**
   * Addresses that are this machine's although no interface has them: the public side of a 1:1
   * NAT, which Janus is told of (`JANUS_PUBLIC_IP`).
   */
  natAddresses?: readonly string[];
  /** Where plain HTTP is served (Caddy's `http_port`); default 80. */
  httpPort?: number;
  /** Connect here instead of the name's address (tests); the name is still what is verified. */
  connectTo?: { host: string; httpsPort: number; httpPort: number };
  /** Trust this CA besides the system's (tests' self-signed certificates). */
  ca?: string;
  timeoutMs?: number;
};

/** Every address of this machine's interfaces, loopback included. */
export function machineAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) =>
    (list ?? []).map((a) => a.address.replace(/%.*$/, '')),
  );
}

const isLoopback = (address: string) => /^127\./.test(address) || address === '::1';

/** The URL's host name without the brackets of an IPv6 literal. */
const hostName = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/** Where to open connections for `target`: its own name and ports unless the test says. */
export function endpoint(target: PublicUrlTarget) {
  const port = target.url.port === '' ? 443 : Number(target.url.port);
  return (
    target.connectTo ?? {
      host: hostName(target.url),
      httpsPort: port,
      httpPort: target.httpPort ?? 80,
    }
  );
}

/** The addresses the public name resolves to, and which of them are this machine's. */
export async function resolvePublicName(
  target: PublicUrlTarget,
): Promise<{ addresses: string[]; local: string[] }> {
  const name = hostName(target.url);
  const addresses =
    isIP(name) === 0 ? (await lookup(name, { all: true })).map((a) => a.address) : [name];
  const mine = new Set([...machineAddresses(), ...(target.natAddresses ?? [])]);
  return { addresses, local: addresses.filter((a) => mine.has(a)) };
}

async function checkDns(target: PublicUrlTarget): Promise<Outcome> {
  const name = hostName(target.url);
  const { addresses, local } = await resolvePublicName(target);
  const list = addresses.join(', ');
  if (local.length === 0) {
    return fail(
      `${name} resolves to ${list}, not an address of this machine`,
      `Point the A/AAAA record of ${name} at this machine's public address (or set JANUS_PUBLIC_IP to it when the machine is behind a 1:1 NAT).`,
    );
  }
  if (local.every(isLoopback)) {
    return warn(
      `${name} resolves to ${list}: loopback, so only this machine reaches it`,
      `Point the DNS record of ${name} at this machine's public address.`,
    );
  }
  if (local.length < addresses.length) {
    const others = addresses.filter((a) => !local.includes(a)).join(', ');
    return warn(
      `${name} resolves to ${list}; ${others} is not this machine`,
      `Remove the DNS records of ${name} that point elsewhere (${others}): browsers pick any of them.`,
    );
  }
  return ok(`${name} resolves to ${list} (this machine)`);
}

/** A certificate field may repeat; the first is the one to show. */
const first = (field: string | string[] | undefined) => (Array.isArray(field) ? field[0] : field);

type PeerCertificateFacts = {
  authorized: boolean;
  error: string | undefined;
  validTo: number;
  subject: string;
  issuer: string;
};

/** Opens TLS to the public name (SNI and verification for the name) and reads its certificate. */
function readCertificate(target: PublicUrlTarget): Promise<PeerCertificateFacts> {
  const at = endpoint(target);
  const name = hostName(target.url);
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: at.host,
      port: at.httpsPort,
      ...(isIP(name) === 0 ? { servername: name } : {}),
      // Node's own hostname check, against the name browsers use rather than `at.host`.
      checkServerIdentity: (_host, cert) => checkServerIdentity(name, cert),
      // We read a bad certificate too, to say what is wrong with it.
      rejectUnauthorized: false,
      ...(target.ca ? { ca: target.ca } : {}),
      timeout: target.timeoutMs ?? 5000,
    });
    socket.once('secureConnect', () => {
      const cert = socket.getPeerCertificate();
      const error = socket.authorizationError;
      resolve({
        authorized: socket.authorized,
        error: error === null || error === undefined ? undefined : String(error),
        validTo: Date.parse(cert.valid_to),
        subject: cert.subjectaltname ?? first(cert.subject?.CN) ?? 'no name',
        issuer: first(cert.issuer?.O) ?? first(cert.issuer?.CN) ?? 'unknown issuer',
      });
      socket.destroy();
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(new Error(`no TLS answer from ${at.host}:${at.httpsPort}`));
    });
    socket.once('error', reject);
  });
}

/** The one-line fix for a certificate Node refuses, by its error code. */
function certificateFix(error: string, name: string): string {
  if (error === 'CERT_HAS_EXPIRED') {
    return `Caddy renews certificates by itself: read its log in the data folder's logs/ for why it could not (ports 80 and 443 reachable from the internet, DNS of ${name} pointing here).`;
  }
  if (error.includes('ALTNAME') || error.includes('Hostname/IP does not match')) {
    return `The certificate is for another name: set FRONTDESK_PUBLIC_URL to https://${name} and restart npm start, so Caddy obtains one for it.`;
  }
  return `Caddy has no certificate from a public authority yet: ports 80 and 443 must be reachable from the internet and ${name} must resolve to this machine; read its log in the data folder's logs/.`;
}

async function checkCertificate(target: PublicUrlTarget, now = Date.now()): Promise<Outcome> {
  const name = hostName(target.url);
  const cert = await readCertificate(target);
  const until = new Date(cert.validTo).toISOString().slice(0, 10);
  if (!cert.authorized) {
    const error = cert.error ?? 'not trusted';
    return fail(
      `the certificate of ${name} is refused: ${error} (${cert.subject}, by ${cert.issuer})`,
      certificateFix(error, name),
    );
  }
  const days = Math.floor((cert.validTo - now) / DAY_MS);
  if (days < CERTIFICATE_WARN_DAYS) {
    return warn(
      `the certificate of ${name} expires in ${days} days (${until}, by ${cert.issuer})`,
      `Caddy renews 30 days ahead, so renewal is failing: read its log in the data folder's logs/ (ports 80 and 443 reachable from the internet, DNS of ${name} pointing here).`,
    );
  }
  return ok(`valid for ${name} until ${until} (${days} days), by ${cert.issuer}`);
}

/** One request without following redirects: the status and headers. */
export function peek(
  url: URL,
  options: { host: string; port: number; ca?: string; timeoutMs?: number },
): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      {
        host: options.host,
        port: options.port,
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        headers: { host: url.host },
        ...(url.protocol === 'https:'
          ? {
              ...(isIP(hostName(url)) === 0 ? { servername: hostName(url) } : {}),
              // Only the status and headers are read; the certificate has a check of its own.
              rejectUnauthorized: false,
              ...(options.ca ? { ca: options.ca } : {}),
            }
          : {}),
        timeout: options.timeoutMs ?? 5000,
      },
      (response) => {
        response.resume();
        resolve({ status: response.statusCode ?? 0, headers: response.headers });
      },
    );
    request.once('timeout', () => request.destroy(new Error(`no answer from ${url.origin}`)));
    request.once('error', reject);
    request.end();
  });
}

async function checkRedirect(target: PublicUrlTarget): Promise<Outcome> {
  const at = endpoint(target);
  const name = hostName(target.url);
  const plainPort = at.httpPort === 80 ? '' : `:${at.httpPort}`;
  const plain = new URL(`http://${target.url.host.replace(/:\d+$/, '')}${plainPort}/`);
  const fixNoPort = `Open port 80 to this machine: Caddy redirects it to HTTPS and needs it to renew the certificate.`;
  let answer;
  try {
    answer = await peek(plain, { host: at.host, port: at.httpPort, timeoutMs: target.timeoutMs });
  } catch (error) {
    return fail(
      `nothing answers http://${name}/ (${error instanceof Error ? error.message : String(error)})`,
      fixNoPort,
    );
  }
  const location = answer.headers.location;
  const to = location === undefined ? undefined : new URL(location, plain);
  if ([301, 302, 307, 308].includes(answer.status) && to?.protocol === 'https:') {
    if (hostName(to) === name) return ok(`http://${name}/ → ${to.href} (${answer.status})`);
    return warn(
      `http://${name}/ redirects to another name: ${to.href}`,
      `Set FRONTDESK_PUBLIC_URL to the name browsers use (https://${name}) and restart npm start.`,
    );
  }
  return fail(
    `http://${name}/ answers ${answer.status} without redirecting to HTTPS`,
    `Let Caddy (npm start with FRONTDESK_PUBLIC_URL) have port 80, not another web server.`,
  );
}

/** DNS, certificate and the HTTP→HTTPS redirect of the public URL. */
export function publicUrlChecks(target: PublicUrlTarget): Check[] {
  const name = hostName(target.url);
  return [
    {
      id: 'public-url.dns',
      title: 'Public name resolves to this machine',
      run: () => checkDns(target),
      fixOnError: `Create an A record for ${name} pointing at this machine's public address.`,
    },
    {
      id: 'public-url.certificate',
      title: 'HTTPS certificate',
      run: () => checkCertificate(target),
      fixOnError: `Nothing answers HTTPS for ${name}: start npm start with FRONTDESK_PUBLIC_URL=https://${name} and open port 443.`,
    },
    {
      id: 'public-url.redirect',
      title: 'HTTP redirects to HTTPS',
      run: () => checkRedirect(target),
      fixOnError: `Open port 80 to this machine: Caddy redirects it to HTTPS.`,
    },
  ];
}
