import { createHmac } from 'node:crypto';
import { SignJWT } from 'jose';

/**
 * The XMPP password: an HS256 JWT with the claims `jid` and `exp`, which ejabberd checks with
 * its `jwt_key` (docs/operations.md, "Tokens"). That key's `k` is the secret string itself,
 * i.e. the base64url text of 32 random bytes, so the HMAC key is the decoded bytes, not the
 * text.
 */
export async function mintXmppToken(secret: string, jid: string, expiresAt: Date): Promise<string> {
  return new SignJWT({ jid })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(Buffer.from(secret, 'base64url'));
}

/**
 * A Janus signed token (`token_auth_secret`, Janus 1.1): `<expiry>,janus,<plugin>` then `:` and
 * the base64 HMAC-SHA1 of that part. It grants the videoroom plugin only.
 */
export function mintJanusToken(secret: string, expiresAt: Date): string {
  const data = `${Math.floor(expiresAt.getTime() / 1000)},janus,janus.plugin.videoroom`;
  const signature = createHmac('sha1', secret).update(data).digest('base64');
  return `${data}:${signature}`;
}
