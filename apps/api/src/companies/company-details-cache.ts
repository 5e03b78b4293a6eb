import type { Kysely } from 'kysely';
import { companyDetailsSchema, isOpenAt, type CompanyDetails } from '@frontdesk/protocol';
import type { Database } from '../db/schema.ts';
import { loadCompanyDetails } from './company-repository.ts';

type Entry = { details: CompanyDetails; expiresAt: number };

/**
 * Company details (spec §3) as the public `GET /company/:id` answers them, kept for `ttlMs`.
 * Every guest page opens with this call, and assembling it takes five queries; kept, it takes
 * none. Calls answered through this process forget their company at once (the wait estimates
 * change); an admin's change, made through any API process, is forgotten by every one at once
 * (CompanyChangeFeed); rows edited behind the API's back show within `ttlMs`. `openNow` is worked out again
 * for every answer, so opening and closing times are never late.
 */
export class CompanyDetailsCache {
  private readonly entries = new Map<number, Entry>();
  private readonly loading = new Map<number, Promise<Entry>>();
  /** Bumped by `forget`, so a load that began before it is not kept as fresh. */
  private generation = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly xmppDomain: string,
    private readonly ttlMs: number,
  ) {}

  /** The company's details with `openNow` as of `now`; a missing company rejects with 404. */
  async get(id: number, now: Date): Promise<CompanyDetails> {
    const { details } = await this.entry(id, now);
    const schedule = details.schedule;
    if (!schedule) return details;
    return {
      ...details,
      schedule: { ...schedule, openNow: isOpenAt(schedule, now) },
    };
  }

  /** Drops what is kept of the company, after a change this process made. */
  forget(id: number): void {
    this.generation += 1;
    this.entries.delete(id);
    this.loading.delete(id);
  }

  /** Drops everything kept: changes may have been missed (the change feed reconnected). */
  forgetAll(): void {
    this.generation += 1;
    this.entries.clear();
    this.loading.clear();
  }

  private async entry(id: number, now: Date): Promise<Entry> {
    const kept = this.entries.get(id);
    if (kept && kept.expiresAt > now.getTime()) return kept;
    // Visitors arriving together share one load rather than each running the queries.
    const shared = this.loading.get(id);
    if (shared) return shared;
    const pending = this.load(id, now).finally(() => {
      if (this.loading.get(id) === pending) this.loading.delete(id);
    });
    this.loading.set(id, pending);
    return pending;
  }

  private async load(id: number, now: Date): Promise<Entry> {
    const generation = this.generation;
    // Checked here, once a load, rather than each time the route answers with them.
    const details = companyDetailsSchema.parse(
      await loadCompanyDetails(this.db, id, this.xmppDomain, now),
    );
    const entry: Entry = { details, expiresAt: now.getTime() + this.ttlMs };
    if (generation === this.generation && this.ttlMs > 0) this.entries.set(id, entry);
    return entry;
  }
}
