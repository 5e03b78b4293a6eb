import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { UnavailableError } from '../domain-errors.ts';
import { countOpenCalls } from '../observability/open-calls.ts';

/**
 * A stopping API's first phase (issue 15): it takes no new call and tells the load balancer so
 * (`/readyz` answers `draining`), while the calls under way go on for a grace period.
 */
export class Drain {
  #began: number | null = null;

  get draining(): boolean {
    return this.#began !== null;
  }

  begin(): void {
    this.#began ??= Date.now();
  }

  /** Refuses to start a call once draining began: the guest tries again, on another server. */
  refuseNewCalls(): void {
    if (this.draining) {
      throw new UnavailableError(
        'draining',
        'This server is restarting and takes no new calls: try again in a minute.',
      );
    }
  }
}

/**
 * Waits until no call is live or the grace period is over, whichever comes first, and says which.
 * The calls' own pages reconnect to another server after that, as after any restart.
 */
export async function waitForLiveCalls(
  db: Kysely<Database>,
  graceMs: number,
  { pollMs = 1000, onWaiting }: { pollMs?: number; onWaiting?: (live: number) => void } = {},
): Promise<'ended' | 'graceOver'> {
  const deadline = Date.now() + graceMs;
  for (;;) {
    const { live } = await countOpenCalls(db);
    if (live === 0) return 'ended';
    if (Date.now() >= deadline) return 'graceOver';
    onWaiting?.(live);
    await sleep(Math.min(pollMs, Math.max(0, deadline - Date.now())));
  }
}
