import { sql, type Kysely } from 'kysely';

/**
 * Issue 20's leftover (decision 0032): a file an agent sends in a call names that call too, so a
 * guest's export and erasure reach it. The column is the one a guest's upload already fills
 * (migration 0009); what it means now is said in its comment. Files agents sent before keep no
 * call: nothing tells which call they were sent in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`comment on column uploads.call_report_id is ${sql.lit(
    'The live call the file was sent in: by its guest (the call’s quota counts it) or by the agent who took the call (not counted). Exported and erased with the call’s guest; `null` for a file sent outside a call.',
  )}`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`comment on column uploads.call_report_id is ${sql.lit(
    "A guest's upload: the live call it was sent in (its quota counts it).",
  )}`.execute(db);
}
