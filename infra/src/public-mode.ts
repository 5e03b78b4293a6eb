// Public mode's settings (`FRONTDESK_PUBLIC_URL=https://calls.example.com npm start`), and the
// address Janus announces for media when none is configured.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import pg from 'pg';
import { z } from 'zod';
import { DEMO_LOGINS } from '@frontdesk/api/seed';
import type { PublicSite } from './stack.ts';

const PUBLIC_URL_FORM =
  'must be https://<host name>[:port] with no path, e.g. https://calls.example.com (a DNS name: ' +
  'certificates are for names)';

/** The environment of public mode, as `npm start` reads it. */
export const publicEnvSchema = z
  .object({
    /** `https://<host>[:port]`: the address browsers use; turns public mode on. */
    FRONTDESK_PUBLIC_URL: z
      .url({ protocol: /^https$/, hostname: z.regexes.domain, error: PUBLIC_URL_FORM })
      .refine((text) => {
        // Checked even when not a URL at all (that issue is reported above).
        const url = URL.canParse(text) ? new URL(text) : undefined;
        return !url || ((url.pathname === '/' || url.pathname === '') && !url.search && !url.hash);
      }, PUBLIC_URL_FORM)
      .optional(),
    /** The operator's certificate (PEM, leaf first) and key; both or neither. */
    FRONTDESK_TLS_CERT: z.string().min(1).optional(),
    FRONTDESK_TLS_KEY: z.string().min(1).optional(),
    /** The ACME account's e-mail (expiry notices) when Caddy gets the certificate itself. */
    FRONTDESK_ACME_EMAIL: z.email().optional(),
  })
  .refine((e) => (e.FRONTDESK_TLS_CERT === undefined) === (e.FRONTDESK_TLS_KEY === undefined), {
    path: ['FRONTDESK_TLS_KEY'],
    message: 'FRONTDESK_TLS_CERT and FRONTDESK_TLS_KEY go together (PEM files of one certificate)',
  })
  .refine((e) => e.FRONTDESK_PUBLIC_URL || !(e.FRONTDESK_TLS_CERT || e.FRONTDESK_ACME_EMAIL), {
    path: ['FRONTDESK_PUBLIC_URL'],
    message: 'is required by FRONTDESK_TLS_CERT and FRONTDESK_ACME_EMAIL (public mode)',
  });

/** The public site described by a checked environment, or undefined outside public mode. */
export function publicSiteOf(env: z.infer<typeof publicEnvSchema>): PublicSite | undefined {
  if (!env.FRONTDESK_PUBLIC_URL) return undefined;
  const url = new URL(env.FRONTDESK_PUBLIC_URL);
  return {
    host: url.hostname.toLowerCase(),
    httpsPort: url.port ? Number(url.port) : 443,
    // Browsers type the name without a scheme and land here first; ACME's HTTP-01 also needs it.
    httpPort: 80,
    ...(env.FRONTDESK_TLS_CERT && env.FRONTDESK_TLS_KEY
      ? { tls: { certFile: env.FRONTDESK_TLS_CERT, keyFile: env.FRONTDESK_TLS_KEY } }
      : {}),
    ...(env.FRONTDESK_ACME_EMAIL ? { acmeEmail: env.FRONTDESK_ACME_EMAIL } : {}),
  };
}

/** Whether the API's HOST keeps it on this machine: public mode puts it behind Caddy there. */
export function isLoopbackHost(host: string): boolean {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase();
  return name === 'localhost' || name === '::1' || /^127(\.\d{1,3}){3}$/.test(name);
}

/** Loopback, private (RFC 1918), carrier-grade NAT and link-local: not reachable from outside. */
function isPrivateIpv4(address: string): boolean {
  const [a = 0, b = 0] = address.split('.').map(Number);
  return (
    a === 10 ||
    a === 127 ||
    a === 0 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168)
  );
}

/** Where Janus's public address came from, for the ready block. */
export type JanusAddress = { ip?: string; why: string };

/**
 * The address Janus should announce (`nat_1_1_mapping`) when `JANUS_PUBLIC_IP` is unset: the
 * public host name's IPv4 address, found in DNS (no outside service is asked), when it is not
 * one of this machine's own addresses, i.e. the machine sits behind a 1:1 NAT as on most
 * clouds. When the machine holds the address itself, Janus finds it without help.
 */
export async function detectJanusPublicIp(
  host: string,
  resolve: (host: string) => Promise<string[]> = async (name) =>
    (await lookup(name, { all: true, family: 4 })).map((entry) => entry.address),
  local: () => string[] = () =>
    Object.values(networkInterfaces())
      .flat()
      .flatMap((entry) => (entry ? [entry.address] : [])),
): Promise<JanusAddress> {
  let addresses: string[];
  try {
    addresses = isIP(host) === 4 ? [host] : await resolve(host);
  } catch {
    return { why: `${host} does not resolve yet; set JANUS_PUBLIC_IP behind a NAT` };
  }
  const publicOnes = addresses.filter((address) => !isPrivateIpv4(address));
  const mine = local();
  const own = publicOnes.find((address) => mine.includes(address));
  if (own) return { why: `${host} is ${own}, an address of this machine: no mapping needed` };
  const ip = publicOnes[0];
  if (!ip) {
    return { why: `${host} resolves to no public IPv4 address; set JANUS_PUBLIC_IP behind a NAT` };
  }
  return { ip, why: `${host} resolves to ${ip}, not an address of this machine (1:1 NAT)` };
}

/**
 * SECURITY: public mode without FRONTDESK_DEMO=1 switches off the demo logins (public e-mails,
 * one published password, an admin among them) that an earlier local start of the same data
 * folder created: they would otherwise sign anyone in on a reachable server. Their sessions end
 * at their next request (an inactive member's do). Returns how many it switched off; a database
 * without tables yet has none.
 */
export async function deactivateDemoLogins(
  databaseUrl: string,
  schema: string | undefined,
): Promise<number> {
  const client = new pg.Client({
    connectionString: databaseUrl,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  await client.connect();
  try {
    const result = await client.query(
      'update staff set active = false where email = any($1::text[]) and active',
      [DEMO_LOGINS.map((login) => login.email)],
    );
    return result.rowCount ?? 0;
  } catch (error) {
    // 42P01: no staff table yet (the API's first start migrates).
    if (error instanceof Error && 'code' in error && error.code === '42P01') return 0;
    throw error;
  } finally {
    await client.end();
  }
}
