import type { Counted, SharedCounters } from '../cluster/shared-counters.ts';

/** At most `max` failures of one key (an address, an e-mail) in a window of `windowMs`. */
export type FailedSignInLimit = { name: string; max: number; windowMs: number };

/**
 * Failed sign-ins per key in fixed windows, counted by every API process together (decision
 * 0038): a guesser spreading attempts over the replicas meets the limit at the same count.
 * SECURITY: only failures count, so password guessing is stopped while a contact centre whose
 * agents all sign in from one office address is never held back by its own successes.
 * (@fastify/rate-limit counts every request, and cannot tell whether a key is over its limit
 * without counting one more.) Each method takes the keys in the order of `limits`.
 */
export class FailedSignIns {
  constructor(
    private readonly counters: SharedCounters,
    private readonly limits: readonly FailedSignInLimit[],
  ) {}

  private counted(keys: readonly string[]): (Counted & { max: number })[] {
    return this.limits.map((limit, i) => ({
      key: `failed-sign-in:${limit.name}:${keys[i] ?? ''}`,
      windowMs: limit.windowMs,
      max: limit.max,
    }));
  }

  /**
   * Counts one more attempt of each key, as failed until {@link forgive} takes it back, and
   * answers the seconds until the keys may try again: 0 when this attempt may go ahead. One
   * statement, so guesses sent all at once are counted one after the other, each seeing the
   * ones before. A refused attempt is taken back: it is not a failure.
   */
  async attempt(keys: readonly string[]): Promise<number> {
    const counted = this.counted(keys);
    const counts = await this.counters.hit(counted);
    const waits = counts.map((count) => {
      const max = counted.find((c) => c.key === count.key)?.max ?? Infinity;
      return count.hits > max ? Math.max(1, Math.ceil(count.ttlMs / 1000)) : 0;
    });
    const waitSeconds = Math.max(0, ...waits);
    if (waitSeconds > 0) await this.forgive(keys);
    return waitSeconds;
  }

  /** Takes back one failure of each key: the attempt it was counted for succeeded, or was refused. */
  async forgive(keys: readonly string[]): Promise<void> {
    await this.counters.forgive(this.counted(keys).map((c) => c.key));
  }
}
