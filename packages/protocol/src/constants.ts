/** Business constants of spec §9, shared by every app and server. */

/** spec §9: the media layer retries attach, create, offer, subscribe and answer at most this often. */
export const MEDIA_MAX_RETRIES = 20;
/** spec §9: publishers per videoroom. */
export const ROOM_PUBLISHERS = 10;
/** spec §9: remote feed set-up waits this long, plus {@link REMOTE_FEED_DELAY_PER_PUBLISHER_MS} each. */
export const REMOTE_FEED_BASE_DELAY_MS = 200;
export const REMOTE_FEED_DELAY_PER_PUBLISHER_MS = 200;
export const JOIN_DELAY_MS = 500;
/** spec §9: joining a room is throttled to the leading call in this window. */
export const JOIN_ROOM_THROTTLE_MS = 5000;
export const GEOLOCATION_TIMEOUT_MS = 10_000;
export const CHAT_MAX_RECONNECT_BACKOFF = 10;
export const CHAT_RESOURCE = 'web';
export const CONSOLE_LOG_BUFFER_ENTRIES = 110;
export const GATEWAY_KEEPALIVE_MS = 25_000;
export const GATEWAY_LONG_POLL_TIMEOUT_MS = 60_000;
export const GATEWAY_MAX_POLL_EVENTS = 10;
export const SIMULCAST_BITRATES = { high: 900_000, medium: 300_000, low: 100_000 } as const;
export const REMOTE_TRACK_MUTED_REMOVAL_MS = 2520;
/** spec §1: the default company unless the page names another. */
export const DEFAULT_COMPANY_ID = 5;
