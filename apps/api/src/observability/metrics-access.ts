import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP, isIPv6 } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { bearerToken } from '../plugins/auth.ts';

/** Headers by which a reverse proxy names the visitor whose request it relays. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'] as const;

/** Loopback and the configured addresses and ranges (already checked by `envSchema`). */
function allowedAddresses(entries: readonly string[]): BlockList {
  const list = new BlockList();
  list.addSubnet('127.0.0.0', 8, 'ipv4');
  list.addAddress('::1', 'ipv6');
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const family = isIPv6(address) ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

/** Equal-length digests, so the comparison takes the same time whatever the guess. */
const digest = (text: string) => createHash('sha256').update(text).digest();

export type MetricsRefusal = { status: 401 | 403; code: string; message: string };

/**
 * Who may read `/metrics`, which tells anyone how busy the service is and which dependency is
 * down: a request from loopback or an allowed address, or one with the configured bearer token.
 * SECURITY: behind a reverse proxy on the same machine every request comes from loopback, so the
 * address counts only when the proxy's forwarding headers were resolved (`TRUST_PROXY`) or there
 * are none; a token that is sent must be the right one, wherever it comes from.
 */
export function metricsGuard({
  metrics,
  trustProxy,
}: Pick<Config, 'metrics' | 'trustProxy'>): (request: FastifyRequest) => MetricsRefusal | null {
  const addresses = allowedAddresses(metrics.allowedAddresses);
  const expected = metrics.token === undefined ? undefined : digest(metrics.token);
  const needToken: MetricsRefusal = {
    status: 401,
    code: 'unauthorized',
    message: 'Reading the metrics needs the metrics bearer token.',
  };
  return (request) => {
    const token = bearerToken(request);
    if (expected !== undefined && token !== undefined) {
      return timingSafeEqual(digest(token), expected) ? null : needToken;
    }
    const relayed =
      trustProxy === false &&
      FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined);
    const family = isIP(request.ip);
    // No address at all (a Unix socket) is no address of the list.
    const listed = family !== 0 && addresses.check(request.ip, family === 6 ? 'ipv6' : 'ipv4');
    if (listed && !relayed) return null;
    if (expected !== undefined) return needToken;
    return {
      status: 403,
      code: 'forbidden',
      message: 'The metrics are served to loopback and the configured addresses only.',
    };
  };
}
