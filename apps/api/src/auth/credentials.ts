import type { Config } from '../config.ts';
import { signAccessToken, type Principal } from './access-token.ts';
import { mintJanusToken, mintXmppToken } from './service-tokens.ts';

/**
 * How long one login lasts, for the access token and the XMPP and Janus tokens alike. Janus
 * cannot swap the token of a live session and ejabberd re-checks it on reconnect (INFRA-NOTES
 * "Tokens"), so it must outlast the longest call plus the rating afterwards: 12 hours.
 */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/**
 * A Janus token lasting as long as a login made at `now`: at login, and again from
 * `POST /auth/janus-token` when the media layer re-creates its session.
 */
export function issueJanusToken(config: Config, now: Date) {
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  return {
    janusToken: mintJanusToken(config.secrets.janusToken, expiresAt),
    expiresAt: expiresAt.toISOString(),
  };
}

/** The tokens one login hands out: our bearer token, the XMPP password and the Janus token. */
export async function issueCredentials(
  config: Config,
  principal: Principal,
  jid: string,
  now: Date,
) {
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  const [access_token, xmppPassword] = await Promise.all([
    signAccessToken(config.secrets.apiToken, principal, expiresAt),
    mintXmppToken(config.secrets.xmppJwt, jid, expiresAt),
  ]);
  return { access_token, xmpp: { jid, password: xmppPassword }, ...issueJanusToken(config, now) };
}
