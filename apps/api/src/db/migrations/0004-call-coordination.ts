import { sql, type Kysely } from 'kysely';
import { newRoomPassword } from '@frontdesk/chat/server';

/**
 * The call protocol (docs/protocol.md): each company's chat-room password, and on every call
 * report who claimed it, when it was answered and ended, its Janus room keys, the agent's notes
 * and where it is being transferred.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('companies').addColumn('room_password', 'text').execute();
  const companies = await sql<{ id: number }>`select id from companies`.execute(db);
  for (const { id } of companies.rows) {
    await sql`update companies set room_password = ${newRoomPassword()} where id = ${id}`.execute(
      db,
    );
  }
  await db.schema
    .alterTable('companies')
    .alterColumn('room_password', (c) => c.setNotNull())
    .execute();
  // spec §5: guests send the password lowercased, and ejabberd compares it as it is.
  await db.schema
    .alterTable('companies')
    .addCheckConstraint(
      'companies_room_password_lowercase',
      sql`room_password = lower(room_password)`,
    )
    .execute();

  await db.schema
    .alterTable('call_reports')
    .addColumn('agent_id', 'integer', (c) => c.references('staff.id').onDelete('set null'))
    .addColumn('answered_at', 'timestamptz')
    .addColumn('ended_at', 'timestamptz')
    .addColumn('end_reason', 'text', (c) => c.check(sql`end_reason in ('completed', 'abandoned')`))
    .addColumn('notes', 'text')
    .addColumn('transfer_to_staff_id', 'integer', (c) =>
      c.references('staff.id').onDelete('set null'),
    )
    .addColumn('transfer_to_category_id', 'integer', (c) =>
      c.references('categories.id').onDelete('set null'),
    )
    .addColumn('room_pin', 'text')
    .addColumn('room_secret', 'text')
    .execute();
  await db.schema
    .alterTable('call_reports')
    .addCheckConstraint('call_reports_ended', sql`(ended_at is null) = (end_reason is null)`)
    .execute();
  await db.schema
    .alterTable('call_reports')
    .addCheckConstraint(
      'call_reports_one_transfer_target',
      sql`num_nonnulls(transfer_to_staff_id, transfer_to_category_id) <= 1`,
    )
    .execute();
  // A claim looks up the guest's latest call.
  await db.schema
    .createIndex('call_reports_guest_created')
    .on('call_reports')
    .columns(['guest_id', 'created_at'])
    .execute();
  // The queue estimate reads each category's latest answered calls.
  await db.schema
    .createIndex('call_reports_category_answered')
    .on('call_reports')
    .columns(['category_id', 'answered_at'])
    .where(sql.ref('answered_at'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Their constraints and indexes go with the columns.
  await db.schema
    .alterTable('call_reports')
    .dropColumn('room_secret')
    .dropColumn('room_pin')
    .dropColumn('transfer_to_category_id')
    .dropColumn('transfer_to_staff_id')
    .dropColumn('notes')
    .dropColumn('end_reason')
    .dropColumn('ended_at')
    .dropColumn('answered_at')
    .dropColumn('agent_id')
    .execute();
  await db.schema.alterTable('companies').dropColumn('room_password').execute();
}
