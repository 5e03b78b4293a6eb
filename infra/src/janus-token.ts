import { createHmac } from 'node:crypto';

/**
 * Mints a Janus 1.1.2 signed token (`token_auth_secret`):
 * `<expiry unix s>,janus,<plugin>[,<plugin>…]:<base64(HMAC-SHA1(secret, part before the colon))>`.
 * The realm must be exactly `janus` and plugin names exact; every request of a
 * session (create, attach, message, keepalive) carries it, and after expiry the
 * session dies at its next keepalive, so give it a TTL longer than the longest call.
 */
export function mintJanusToken(
  secret: string,
  ttlSeconds: number,
  plugins: readonly string[] = ['janus.plugin.videoroom'],
): string {
  if (!Number.isFinite(ttlSeconds) || ttlSeconds <= 0) throw new Error('ttlSeconds must be > 0');
  if (plugins.some((plugin) => plugin === '' || /[,:]/.test(plugin))) {
    throw new Error('plugin names must be non-empty and contain no "," or ":"');
  }
  const expiry = Math.floor(Date.now() / 1000) + Math.ceil(ttlSeconds);
  const data = [String(expiry), 'janus', ...plugins].join(',');
  return `${data}:${createHmac('sha1', secret).update(data).digest('base64')}`;
}
