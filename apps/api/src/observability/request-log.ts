import type { FastifyRequest } from 'fastify';

/**
 * Query parameters that are credentials: a recording link's `signature` (decision 0020) lets
 * whoever holds the link play the film until it expires, so the request log must not keep one.
 */
const SECRET_QUERY_PARAMETERS = new Set(['signature']);

/** What the request log shows of a secret query value. */
export const REDACTED = '[redacted]';

/** A query key as the routes read it: percent-decoded, `+` a space; as it came if malformed. */
function decodedKey(key: string): string {
  try {
    return decodeURIComponent(key.replace(/\+/g, ' '));
  } catch {
    return key;
  }
}

/**
 * `url` (a path with its query) with the value of every secret query parameter replaced by
 * {@link REDACTED}, and the rest as it came. Keys are compared decoded, as the routes read them,
 * so `%73ignature=…` is redacted too.
 */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  if (queryAt === -1) return url;
  const pairs = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const key = pair.split('=', 1)[0] ?? pair;
      return SECRET_QUERY_PARAMETERS.has(decodedKey(key)) ? `${key}=${REDACTED}` : pair;
    });
  return `${url.slice(0, queryAt)}?${pairs.join('&')}`;
}

/**
 * The request as Fastify's own serializer logs it ("incoming request", and a failed request's
 * error), with secret query values redacted ({@link redactUrl}).
 */
export function serializeRequest(request: FastifyRequest) {
  const version = request.headers['accept-version'];
  return {
    method: request.method,
    url: redactUrl(request.url),
    version: typeof version === 'string' ? version : undefined,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
