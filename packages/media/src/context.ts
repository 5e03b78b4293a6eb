import type { MediaSetupStage, RoomAccess } from '@frontdesk/protocol';
import { toMediaError, type MediaError } from './errors.ts';
import type { Publisher } from './feeds.ts';
import type { Gateway, PluginData, VideoroomHandle } from './janus.ts';
import type { CallMarks } from './quality-report.ts';
import { DEFAULT_RETRY_POLICY, withRetry, type RetryPolicy } from './retry.ts';
import type {
  EndReason,
  MediaDirection,
  MediaSessionEvents,
  MediaSessionOptions,
  MediaState,
} from './types.ts';

/**
 * What the parts of a `MediaSession` (publisher, subscribers, ICE, connection, quality) share;
 * internal to the package. The session stays the only emitter and the owner of the state and
 * status: the parts report through `update`, `stage`, `emit`, `fail` and `end`.
 */
export interface SessionContext {
  readonly options: MediaSessionOptions;
  /** Aborted when the call ends: stops every retry and wait. */
  readonly signal: AbortSignal;
  /** The current connection to Janus; null while it is re-created and once the call ended. */
  generation: Generation | null;
  /** Our camera and microphone; null before capture and once the call ended. */
  local: MediaStream | null;
  /** A lost session is being re-created. */
  recovering: boolean;
  /** What the call's quality report needs that no statistics tell (set-up, reconnects, ICE). */
  readonly marks: CallMarks;
  state(): MediaState;
  update(patch: Partial<MediaState>): void;
  stage(stage: MediaSetupStage, ok: boolean, error?: MediaError | null): void;
  emit<K extends keyof MediaSessionEvents>(event: K, payload: MediaSessionEvents[K]): void;
  /** A failure after set-up: recorded in the state; recovery is driven by the gateway. */
  fail(raw: unknown): void;
  end(reason: EndReason, error?: MediaError): void;
}

/** One connection to Janus: re-created as a whole when the session is lost. */
export interface Generation {
  readonly gateway: Gateway;
  readonly publisher: VideoroomHandle;
  readonly access: RoomAccess;
  readonly privateId: number;
  subscriber: Promise<VideoroomHandle> | null;
  /** Feed id → mids we asked Janus for. */
  readonly subscribed: Map<string, Set<string>>;
  /** Subscriber mid → feed id, from Janus's `streams` lists. */
  readonly midToFeed: Map<string, string>;
  readonly publishers: Map<string, Publisher>;
  /** Serialises subscriber renegotiations (offers arrive one at a time). */
  subscriberQueue: Promise<void>;
  feedTimer: ReturnType<typeof setTimeout> | undefined;
  /** Pending ICE restarts of PeerConnections that went `disconnected`. */
  readonly iceTimers: Partial<Record<MediaDirection, ReturnType<typeof setTimeout>>>;
  /** PeerConnections whose ICE is `disconnected` or `failed` right now. */
  readonly iceDown: Partial<Record<MediaDirection, boolean>>;
  /** Janus said it stopped receiving our video, and has not said it receives it again. */
  videoLost: boolean;
}

/** Set-up records stages and retries each step; recovery retries the whole generation. */
export type StepMode = 'setup' | 'recover';

export function stopTimers(generation: Generation): void {
  clearTimeout(generation.feedTimer);
  for (const timer of Object.values(generation.iceTimers)) clearTimeout(timer);
}

export const isVideoroom = (data: PluginData, kind: string) => data.videoroom === kind;

/** spec §8's retries of a step while setting up; none while recovering (see {@link step}). */
export function stepPolicy(ctx: SessionContext, mode: StepMode): RetryPolicy {
  const policy = ctx.options.retry ?? DEFAULT_RETRY_POLICY;
  return mode === 'setup' ? policy : { ...policy, retries: 0 };
}

/**
 * Runs a step with spec §8's retries, recording its stage. While recovering, the recovery
 * loop does the retrying and stages keep their set-up result (no call-bug report for a
 * retried recovery attempt).
 */
export async function step<T>(
  ctx: SessionContext,
  stage: MediaSetupStage | null,
  run: () => Promise<T>,
  mode: StepMode = 'setup',
): Promise<T> {
  try {
    const result = await withRetry(run, { policy: stepPolicy(ctx, mode), signal: ctx.signal });
    if (stage && mode === 'setup') ctx.stage(stage, true);
    return result;
  } catch (raw) {
    const error = toMediaError(raw);
    if (stage && mode === 'setup') ctx.stage(stage, false, error);
    throw error;
  }
}
