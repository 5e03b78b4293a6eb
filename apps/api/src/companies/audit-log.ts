import { sql, type Kysely } from 'kysely';
import type { AuditEntry } from '@frontdesk/protocol';
import type { Database } from '../db/schema.ts';

/**
 * How large one page of the audit log may grow, in bytes of its answer. SECURITY: an entry keeps
 * what a change replaced and what it became (a form, the zones: up to a request's megabyte
 * each), so `limit` entries alone could make an answer of hundreds of megabytes, enough to take
 * the API process down for every company. A page ends before this size; an entry larger than
 * it still comes, alone on its page.
 */
export const AUDIT_PAGE_BYTES = 2 * 1024 * 1024;

/** What an entry adds to a page besides `before` and `after`: id, time, actor, action, target. */
const ENTRY_OVERHEAD_BYTES = 1024;

/**
 * `GET /company/:id/audit`: the company's audit entries newest first, `limit` a page or fewer when
 * they would pass {@link AUDIT_PAGE_BYTES}, older than the entry `before` when given;
 * `nextBefore` continues with the next older page.
 */
export async function listAuditEntries(
  db: Kysely<Database>,
  companyId: number,
  { before, limit }: { before?: number | undefined; limit: number },
): Promise<{ entries: AuditEntry[]; nextBefore: number | null }> {
  // First only the sizes (the database reads the values, this process does not), then the page.
  let sizes = db
    .selectFrom('audit_entries')
    .select([
      'id',
      sql<number>`coalesce(octet_length("before"::text), 0) + coalesce(octet_length("after"::text), 0)`.as(
        'bytes',
      ),
    ])
    .where('company_id', '=', companyId)
    .orderBy('id', 'desc')
    // One more than asked: whether an older page exists.
    .limit(limit + 1);
  if (before !== undefined) sizes = sizes.where('id', '<', String(before));
  const candidates = await sizes.execute();
  const pageIds: string[] = [];
  let pageBytes = 0;
  for (const { id, bytes } of candidates.slice(0, limit)) {
    const entryBytes = Number(bytes) + ENTRY_OVERHEAD_BYTES;
    if (pageIds.length > 0 && pageBytes + entryBytes > AUDIT_PAGE_BYTES) break;
    pageIds.push(id);
    pageBytes += entryBytes;
  }
  const rows =
    pageIds.length === 0
      ? []
      : await db
          .selectFrom('audit_entries')
          .selectAll()
          .where('id', 'in', pageIds)
          .orderBy('id', 'desc')
          .execute();
  const entries = rows.map((row) => ({
    id: Number(row.id),
    at: row.created_at.toISOString(),
    staffId: row.staff_id,
    actor: row.actor,
    action: row.action,
    target: row.target,
    before: row.before,
    after: row.after,
  }));
  return {
    entries,
    nextBefore: candidates.length > pageIds.length ? (entries.at(-1)?.id ?? null) : null,
  };
}
