import { z } from 'zod';
import { iceServerSchema } from './config.ts';

/**
 * How one self-test check came out (`npm run doctor`, `GET /api/admin/doctor`): `warn` works
 * today but will hurt (a certificate expiring soon, a disk filling up), `fail` breaks calls now.
 */
export const doctorStatusSchema = z.enum(['ok', 'warn', 'fail']);
export type DoctorStatus = z.infer<typeof doctorStatusSchema>;

/** One check: what was looked at, what was found and, unless it is `ok`, the fix in one line. */
export const doctorCheckSchema = z.object({
  /** Stable name, e.g. `public-url.certificate`: tests and scripts key on it. */
  id: z.string().min(1),
  title: z.string().min(1),
  status: doctorStatusSchema,
  detail: z.string(),
  fix: z.string().optional(),
});
export type DoctorCheck = z.infer<typeof doctorCheckSchema>;

/**
 * `GET /api/admin/doctor` (admins only): the checks the API process can make on its machine, and
 * what the console needs for the checks only a browser can make. SECURITY: `iceServers` holds
 * relay credentials minted for this check alone, valid for minutes (decision 0015).
 */
export const doctorReportSchema = z.object({
  /** The server's clock when it answered: the console compares it with the browser's. */
  checkedAt: z.iso.datetime(),
  checks: z.array(doctorCheckSchema),
  /** The TURN relays the browser gathers relay candidates from; empty when none is configured. */
  iceServers: z.array(iceServerSchema),
  /** What the API process cannot see and `npm run doctor` on the server checks instead. */
  notChecked: z.array(z.string()),
});
export type DoctorReport = z.infer<typeof doctorReportSchema>;

/** One TURN URL as RTCPeerConnection reads it (RFC 7065): `turn[s]:host[:port][?transport=…]`. */
export type TurnUrl = { url: string; host: string; port: number; via: 'udp' | 'tcp' | 'tls' };

/**
 * Splits a TURN URL into where it leads and how: `turns:` is TLS (over TCP), `turn:` is UDP
 * unless `?transport=tcp`. Undefined for anything else (a `stun:` URL).
 */
export function parseTurnUrl(url: string): TurnUrl | undefined {
  const match = /^(turns?):(\[[^\]]+\]|[^:?[\]]+)(?::(\d+))?(?:\?transport=(udp|tcp))?$/.exec(url);
  if (!match) return undefined;
  const [, scheme, host = '', port, transport] = match;
  const secure = scheme === 'turns';
  return {
    url,
    host: host.replace(/^\[|\]$/g, ''),
    port: port === undefined ? (secure ? 5349 : 3478) : Number(port),
    via: secure ? 'tls' : transport === 'tcp' ? 'tcp' : 'udp',
  };
}
