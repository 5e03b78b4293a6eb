import { MEDIA_MAX_RETRIES } from '@frontdesk/protocol';
import { toMediaError, type MediaError } from './errors.ts';

export interface RetryPolicy {
  /** Retries after the first attempt; spec §9: at most {@link MEDIA_MAX_RETRIES}. */
  readonly retries: number;
  /** Wait before retry n is `min(baseDelayMs * 2^(n-1), maxDelayMs)`. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

/** How long a PeerConnection may stay `disconnected` (a network change) before an ICE restart. */
export const ICE_DISCONNECTED_GRACE_MS = 3000;

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  retries: MEDIA_MAX_RETRIES,
  baseDelayMs: 100,
  maxDelayMs: 2000,
};

/** Resolves after `ms`, or rejects when `signal` aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs `operation` until it succeeds, retrying retryable failures (spec §8: attach, create
 * room, offer, subscribe and answer retry on error) with exponential backoff. Errors that a
 * retry cannot fix ({@link MediaError.retryable}) and an aborted `signal` end it at once.
 * `beforeRetry` runs before each new attempt (e.g. re-creating a lost session).
 */
export async function withRetry<T>(
  operation: (attempt: number) => Promise<T>,
  options: {
    policy?: RetryPolicy;
    signal?: AbortSignal;
    beforeRetry?: (error: MediaError, attempt: number) => Promise<void> | void;
  } = {},
): Promise<T> {
  const policy = options.policy ?? DEFAULT_RETRY_POLICY;
  for (let attempt = 0; ; attempt++) {
    try {
      return await operation(attempt);
    } catch (raw) {
      const error = toMediaError(raw);
      if (options.signal?.aborted) throw options.signal.reason;
      if (!error.retryable || attempt >= policy.retries) throw error;
      await sleep(Math.min(policy.baseDelayMs * 2 ** attempt, policy.maxDelayMs), options.signal);
      await options.beforeRetry?.(error, attempt + 1);
    }
  }
}
