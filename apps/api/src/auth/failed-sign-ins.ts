type Window = { failures: number; endsAt: number };

/** How many keys are kept before the ended windows are swept away. */
const SWEEP_AT = 10_000;

/**
 * Failed sign-ins per key (an address, an e-mail) in fixed windows. SECURITY: only failures
 * count, so password guessing is stopped while a contact centre whose agents all sign in from
 * one office address is never held back by its own successes. (@fastify/rate-limit counts every
 * request, and cannot tell whether a key is over its limit without counting one more.)
 */
export class FailedSignIns {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Seconds until `key` may try again; 0 when it may now. */
  retryAfterSeconds(key: string, now: number): number {
    const window = this.windows.get(key);
    if (!window || window.endsAt <= now || window.failures < this.max) return 0;
    return Math.ceil((window.endsAt - now) / 1000);
  }

  /** One more failure (or attempt in flight) of `key`. */
  record(key: string, now: number): void {
    const window = this.windows.get(key);
    if (window && window.endsAt > now) {
      window.failures += 1;
      return;
    }
    if (this.windows.size >= SWEEP_AT) this.sweep(now);
    this.windows.set(key, { failures: 1, endsAt: now + this.windowMs });
  }

  /** Takes back one failure of `key` (the attempt it was counted for succeeded). */
  forgive(key: string, now: number): void {
    const window = this.windows.get(key);
    if (window && window.endsAt > now && window.failures > 0) window.failures -= 1;
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
  }
}
