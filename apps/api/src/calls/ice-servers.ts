import { createHmac } from 'node:crypto';
import type { IceServer, RecordingRole } from '@frontdesk/protocol';

/**
 * spec §9: a STUN server is there also when the installation names none and runs no TURN
 * server, so a browser behind a NAT still learns its public address (janus.js's own default).
 */
export const DEFAULT_STUN_URL = 'stun:stun.l.google.com:19302';

/** Where a call's peer connections find STUN and TURN, as the API's configuration says. */
export type IceConfig = {
  stunUrl: string | null;
  turnUrls: readonly string[];
  /** Shared with the TURN server (coturn `static-auth-secret`); null when no relay is configured. */
  turnSecret: string | null;
  /** How long a relay credential stays valid; at most an hour (decision 0015). */
  turnTtlSeconds: number;
};

/**
 * The ICE servers of one participant of one call: the STUN server, and the TURN relays with a
 * credential of the TURN REST API convention (coturn `use-auth-secret`): the username is the
 * expiry time and who it is for, the password an HMAC-SHA1 of the username under the shared
 * secret. SECURITY: the TURN server checks both without asking us, so the expiry is what limits
 * a leaked credential; the name in it shows in the TURN server's log whose relay it is.
 */
export function callIceServers(
  config: IceConfig,
  callId: string,
  role: RecordingRole,
  now = Date.now(),
): IceServer[] {
  const servers: IceServer[] = config.stunUrl ? [{ urls: config.stunUrl }] : [];
  if (config.turnSecret === null || config.turnUrls.length === 0) return servers;
  const expiresAt = Math.floor(now / 1000) + config.turnTtlSeconds;
  const username = `${expiresAt}:${callId}-${role}`;
  const credential = createHmac('sha1', config.turnSecret).update(username).digest('base64');
  return [...servers, { urls: [...config.turnUrls], username, credential }];
}
