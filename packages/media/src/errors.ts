/**
 * Why a media operation failed. The gateway codes are the messages of spec §8 that janus.js
 * reports as bare strings; the others are ours.
 */
export type MediaErrorCode =
  | 'notInitialized'
  | 'webrtcUnsupported'
  | 'invalidServerUrl'
  | 'serverDown'
  | 'connectionLost'
  | 'invalidHandle'
  | 'networkError'
  | 'timeout'
  | 'badResponse'
  | 'apiCallFailed'
  | 'invalidPlugin'
  | 'invalidJsep'
  | 'invalidArgument'
  | 'unauthorized'
  | 'plugin'
  | 'disabledCamera'
  | 'webrtc'
  /** The API refused the call's room (409): the call has ended, or was never let through. */
  | 'callEnded';

/** Codes that retrying cannot fix: the caller's input or credentials are wrong. */
const PERMANENT: ReadonlySet<MediaErrorCode> = new Set([
  'notInitialized',
  'webrtcUnsupported',
  'invalidServerUrl',
  'invalidArgument',
  'invalidJsep',
  'invalidPlugin',
  'unauthorized',
  'disabledCamera',
  'callEnded',
]);

/** A typed media failure; `message` keeps the gateway's own words for logs and bug reports. */
export class MediaError extends Error {
  override readonly name = 'MediaError';

  constructor(
    readonly code: MediaErrorCode,
    message: string,
    /** Janus or videoroom error code when the server gave one (e.g. 433 unauthorized). */
    readonly janusCode?: number,
  ) {
    super(message);
  }

  /** Whether trying again may succeed (spec §8 retries only make sense for these). */
  get retryable(): boolean {
    return !PERMANENT.has(this.code);
  }
}

// spec §8: the gateway messages, matched on their stable start.
const GATEWAY_MESSAGES: readonly [string, MediaErrorCode][] = [
  ['Library not initialized', 'notInitialized'],
  ['WebRTC not supported by this browser', 'webrtcUnsupported'],
  ['Invalid server url', 'invalidServerUrl'],
  ['Is the server down? (connected=false)', 'serverDown'],
  ['Lost connection to the server (is it down?)', 'connectionLost'],
  ['Invalid handle', 'invalidHandle'],
  ['Probably a network error, is the server down?', 'networkError'],
  ['Request timed out', 'timeout'],
  ['Failed to parse response body', 'badResponse'],
  ['API call failed', 'apiCallFailed'],
  ['Invalid plugin', 'invalidPlugin'],
  ['Invalid JSEP', 'invalidJsep'],
  ['Provided a JSEP to a createOffer', 'invalidJsep'],
  ['A valid JSEP is required for createAnswer', 'invalidJsep'],
  ['Tracks must be an array', 'invalidArgument'],
];

/** Janus core codes (`Ooops: 403 …`, `403 …`) that mean bad credentials. */
const UNAUTHORIZED_CODES = new Set([403, 405]);
// Videoroom codes: 429 missing element (pin), 433 unauthorized (pin, private_id, admin_key).
const VIDEOROOM_UNAUTHORIZED_CODES = new Set([429, 433]);

/** Turns whatever janus.js, the videoroom plugin or the browser gave us into a {@link MediaError}. */
export function toMediaError(raw: unknown): MediaError {
  if (raw instanceof MediaError) return raw;
  if (raw instanceof DOMException || raw instanceof Error) {
    return new MediaError('webrtc', `${raw.name}: ${raw.message}`);
  }
  const message = typeof raw === 'string' ? raw : JSON.stringify(raw);
  for (const [start, code] of GATEWAY_MESSAGES) {
    if (message.startsWith(start)) return new MediaError(code, message);
  }
  // "<status>: Is the server down?" (HTTP) and "Error connecting to the Janus WebSockets server…"
  if (message.includes('Is the server down?')) return new MediaError('serverDown', message);
  const core = /^(?:Ooops: )?(\d{3}) /.exec(message);
  if (core?.[1]) {
    const code = Number(core[1]);
    return new MediaError(UNAUTHORIZED_CODES.has(code) ? 'unauthorized' : 'plugin', message, code);
  }
  return new MediaError('plugin', message);
}

/** A videoroom error (`{ error_code, error }` in plugin data) as a {@link MediaError}. */
export function videoroomError(code: number, message: string): MediaError {
  return new MediaError(
    VIDEOROOM_UNAUTHORIZED_CODES.has(code) ? 'unauthorized' : 'plugin',
    `${code} ${message}`,
    code,
  );
}

/** A listener of a media event threw: reported, and the media layer and other listeners go on. */
export function mediaListenerFailed(event: string, error: unknown): void {
  console.error(`media: a '${event}' listener threw`, error);
}

/** The app's API calls (room, token, ICE servers): their failures are `apiCallFailed`, retried. */
export async function fromApp<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (raw) {
    if (raw instanceof MediaError) throw raw;
    throw new MediaError('apiCallFailed', raw instanceof Error ? raw.message : String(raw));
  }
}
