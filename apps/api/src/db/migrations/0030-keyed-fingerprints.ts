import { sql, type Kysely, type Migration } from 'kysely';
import { keyedFingerprint } from '../../guests/guest-identity.ts';

/** Values per statement: well below PostgreSQL's parameter limit, few round trips. */
const BATCH = 1000;

/**
 * Decision 0033: the database keeps each browser fingerprint as its HMAC under the API's
 * `GUEST_FINGERPRINT_KEY`, never as it came. The key is configuration, not data, so the API
 * hands it to this migration (`migrateToLatest`); the fingerprints already stored — the guests',
 * the block lists' and those the audit log wrote of blocks — are replaced by their HMACs here,
 * with the same function new rows use, so a blocked browser stays blocked. Not reversible: the
 * fingerprints are gone.
 */
export function keyedFingerprints(key: string): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const { rows } = await sql<{ fingerprint: string }>`
        select fingerprint from guests union select fingerprint from guest_blocks
        union select after->>'fingerprint' from audit_entries
          where action like 'block.%' and after ? 'fingerprint'
        union select before->>'fingerprint' from audit_entries
          where action like 'block.%' and before ? 'fingerprint'`.execute(db);
      const raw = rows.map((row) => row.fingerprint);
      for (let start = 0; start < raw.length; start += BATCH) {
        const batch = raw.slice(start, start + BATCH);
        const keyed = batch.map((fingerprint) => keyedFingerprint(key, fingerprint));
        const pairs = sql`unnest(${batch}::text[], ${keyed}::text[]) as m(raw, keyed)`;
        await sql`update guests g set fingerprint = m.keyed from ${pairs}
          where g.fingerprint = m.raw`.execute(db);
        await sql`update guest_blocks b set fingerprint = m.keyed from ${pairs}
          where b.fingerprint = m.raw`.execute(db);
        for (const side of ['after', 'before'] as const) {
          const column = sql.ref(side);
          await sql`update audit_entries a
            set ${column} = jsonb_set(${column}, '{fingerprint}', to_jsonb(m.keyed)) from ${pairs}
            where a.action like 'block.%' and ${column}->>'fingerprint' = m.raw`.execute(db);
        }
      }
      const keyedBy = 'under GUEST_FINGERPRINT_KEY (decision 0033)';
      const comments = {
        guests: `HMAC-SHA-256 (hex) of the browser's lower-cased fingerprint ${keyedBy}: what block lists match.`,
        guest_blocks: `HMAC-SHA-256 (hex) of the blocked browser's lower-cased fingerprint ${keyedBy}.`,
      };
      for (const [table, comment] of Object.entries(comments)) {
        await sql`comment on column ${sql.table(table)}.fingerprint is ${sql.lit(comment)}`.execute(
          db,
        );
      }
    },
  };
}
