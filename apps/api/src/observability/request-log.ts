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
 * {@link REDACTED}, and the rest as it came; with `personalData` false, every query value (a
 * guest's username, a search) is replaced and only the keys are kept. Keys are compared decoded,
 * as the routes read them, so `%73ignature=…` is redacted too.
 */
export function redactUrl(url: string, { personalData = true } = {}): string {
  const queryAt = url.indexOf('?');
  if (queryAt === -1) return url;
  const pairs = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const key = pair.split('=', 1)[0] ?? pair;
      const kept = personalData && !SECRET_QUERY_PARAMETERS.has(decodedKey(key));
      return kept ? pair : `${key}=${REDACTED}`;
    });
  return `${url.slice(0, queryAt)}?${pairs.join('&')}`;
}

/**
 * How the log shows a request ("incoming request", and a failed request's error), as Fastify's
 * own serializer does but with secret query values redacted ({@link redactUrl}). Without
 * `personalData` (the default, `LOG_PERSONAL_DATA`; decision 0033) it also leaves out the
 * visitor's address and every query value.
 */
export function requestSerializer({ personalData }: { personalData: boolean }) {
  return (request: FastifyRequest) => {
    const version = request.headers['accept-version'];
    return {
      method: request.method,
      url: redactUrl(request.url, { personalData }),
      version: typeof version === 'string' ? version : undefined,
      host: request.host,
      ...(personalData
        ? { remoteAddress: request.ip, remotePort: request.socket?.remotePort }
        : {}),
    };
  };
}

/**
 * Parts of logged objects that may quote what people typed, kept out unless `LOG_PERSONAL_DATA`:
 * PostgreSQL's `detail` names a row's values (`Key (email)=(…) already exists`).
 */
export const PERSONAL_LOG_PATHS = ['err.detail', 'err.cause.detail'];
