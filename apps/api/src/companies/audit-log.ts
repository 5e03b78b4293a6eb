import type { Kysely } from 'kysely';
import type { AuditEntry } from '@frontdesk/protocol';
import type { Database } from '../db/schema.ts';

/**
 * `GET /company/:id/audit`: the company's audit entries newest first, `limit` a page, older than
 * the entry `before` when given; `nextBefore` continues with the next older page.
 */
export async function listAuditEntries(
  db: Kysely<Database>,
  companyId: number,
  { before, limit }: { before?: number | undefined; limit: number },
): Promise<{ entries: AuditEntry[]; nextBefore: number | null }> {
  let query = db
    .selectFrom('audit_entries')
    .selectAll()
    .where('company_id', '=', companyId)
    .orderBy('id', 'desc')
    // One more than asked: whether an older page exists.
    .limit(limit + 1);
  if (before !== undefined) query = query.where('id', '<', String(before));
  const rows = await query.execute();
  const entries = rows.slice(0, limit).map((row) => ({
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
    nextBefore: rows.length > limit ? (entries.at(-1)?.id ?? null) : null,
  };
}
