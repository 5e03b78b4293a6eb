/** A publisher of the room as the videoroom lists it (`publishers` in joined/event messages). */
export interface Publisher {
  readonly id: string;
  readonly display: string;
  readonly streams: readonly PublishedStream[];
}

export interface PublishedStream {
  readonly type: 'audio' | 'video' | 'data';
  readonly mid: string;
  readonly codec?: string;
  readonly disabled: boolean;
}

/** What the subscribing browser can decode, where it matters (spec §5 Safari rule). */
export interface CodecSupport {
  readonly safari: boolean;
  readonly vp8: boolean;
  readonly vp9: boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

function parseStream(raw: unknown): PublishedStream | undefined {
  if (!isRecord(raw)) return undefined;
  const { type, mid, codec, disabled } = raw;
  if ((type !== 'audio' && type !== 'video' && type !== 'data') || typeof mid !== 'string') {
    return undefined;
  }
  return {
    type,
    mid,
    ...(typeof codec === 'string' ? { codec } : {}),
    disabled: disabled === true,
  };
}

/** Reads a videoroom `publishers` array, dropping entries that are not publishers. */
export function parsePublishers(raw: unknown): Publisher[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((entry): Publisher[] => {
    if (!isRecord(entry) || typeof entry.id !== 'string') return [];
    const streams = Array.isArray(entry.streams)
      ? entry.streams.map(parseStream).filter((s) => s !== undefined)
      : [];
    return [{ id: entry.id, display: String(entry.display ?? entry.id), streams }];
  });
}

/**
 * spec §5: a remote feed is ignored if its peer is already present. One feed per display: the
 * one whose media is live (`live` holds feed ids with live tracks) stays; otherwise the newest
 * wins, as an older feed of the same person without media is a session that died and has not
 * timed out on the server yet (the peer re-published after losing its connection).
 */
export function chooseFeeds(
  publishers: Iterable<Publisher>,
  ownDisplay: string,
  live: ReadonlySet<string>,
): Publisher[] {
  const byDisplay = new Map<string, Publisher>();
  for (const publisher of publishers) {
    if (publisher.display === ownDisplay) continue;
    const present = byDisplay.get(publisher.display);
    if (present && live.has(present.id)) continue;
    byDisplay.set(publisher.display, publisher);
  }
  return [...byDisplay.values()];
}

/**
 * The streams of a publisher to subscribe to: active audio and video, without VP8/VP9 video
 * for a Safari that cannot decode it (spec §5).
 */
export function wantedStreams(publisher: Publisher, support: CodecSupport): PublishedStream[] {
  return publisher.streams.filter((stream) => {
    if (stream.disabled || stream.type === 'data') return false;
    if (stream.type !== 'video' || !support.safari) return true;
    if (stream.codec === 'vp8') return support.vp8;
    if (stream.codec === 'vp9') return support.vp9;
    return true;
  });
}
