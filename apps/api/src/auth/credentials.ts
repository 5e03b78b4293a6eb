import type { Config } from '../config.ts';
import { signAccessToken, type Principal } from './access-token.ts';
import { mintJanusToken, mintXmppToken } from './service-tokens.ts';
import { SESSION_TTL_MS } from './sessions.ts';

/**
 * How long an access token lasts. Short, so that what a stolen one allows ends soon; the apps
 * refresh it before then (staff with their refresh token, guests by logging in again).
 */
export const ACCESS_TOKEN_TTL_MS = 10 * 60 * 1000;

/** The API's bearer token for `principal`, and when it expires. */
export async function issueAccessToken(config: Config, principal: Principal, now: Date) {
  const expiresAt = new Date(now.getTime() + ACCESS_TOKEN_TTL_MS);
  return {
    access_token: await signAccessToken(config.secrets.apiToken, principal, expiresAt),
    accessTokenExpiresAt: expiresAt.toISOString(),
  };
}

/**
 * A Janus token lasting as long as a session opened at `now`: with the service credentials, and
 * again from `POST /auth/janus-token` when the media layer re-creates its session.
 */
export function issueJanusToken(config: Config, now: Date) {
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  return {
    janusToken: mintJanusToken(config.secrets.janusToken, expiresAt),
    expiresAt: expiresAt.toISOString(),
  };
}

/**
 * How long a member of staff's XMPP token lasts: its access token's time and a margin for the
 * renewal. The console gets the next one with each renewal (`POST /auth/refresh`) and hands it to
 * its chat for the next reconnection, so a sign-in that has ended reaches the chat server no
 * longer than this (and the sweep of staff-chat-sessions disconnects it meanwhile).
 */
export const STAFF_XMPP_TOKEN_TTL_MS = ACCESS_TOKEN_TTL_MS + 5 * 60 * 1000;

/** A member of staff's XMPP login, for {@link STAFF_XMPP_TOKEN_TTL_MS}. */
export async function issueStaffXmppCredentials(config: Config, jid: string, now: Date) {
  const expiresAt = new Date(now.getTime() + STAFF_XMPP_TOKEN_TTL_MS);
  return { jid, password: await mintXmppToken(config.secrets.xmppJwt, jid, expiresAt) };
}

/**
 * What the XMPP server and Janus accept for `jid`, for a session's length: a guest's, which
 * never renews them during its call.
 */
export async function issueServiceCredentials(config: Config, jid: string, now: Date) {
  const janus = issueJanusToken(config, now);
  const password = await mintXmppToken(config.secrets.xmppJwt, jid, new Date(janus.expiresAt));
  return { xmpp: { jid, password }, ...janus };
}
