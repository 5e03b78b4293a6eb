import { sql, type Kysely } from 'kysely';

/**
 * Reports (issue 17): what a call report alone cannot tell. `call_events` keeps the moments of a
 * call the report has no column for (each round-robin offer and to whom, holds and resumes,
 * transfer requests); `call_quality` what each side measured of its media at the end; and
 * `call_recordings` the merged film of a recorded call and how its merge went. A report also
 * says who ended it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('call_reports')
    .addColumn('ended_by', 'text', (c) => c.check(sql`ended_by in ('guest', 'agent', 'server')`))
    .execute();

  await db.schema
    .createTable('call_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) =>
      c.notNull().references('companies.id').onDelete('cascade'),
    )
    .addColumn('call_report_id', 'integer', (c) =>
      c.notNull().references('call_reports.id').onDelete('cascade'),
    )
    .addColumn('kind', 'text', (c) =>
      c.notNull().check(sql`kind in ('offered', 'held', 'resumed', 'transfer_requested')`),
    )
    .addColumn('staff_id', 'integer', (c) => c.references('staff.id').onDelete('set null'))
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('until', 'timestamptz')
    .addColumn('details', 'jsonb')
    .execute();
  await db.schema
    .createIndex('call_events_report')
    .on('call_events')
    .columns(['call_report_id', 'at'])
    .execute();
  await db.schema
    .createIndex('call_events_company_kind_at')
    .on('call_events')
    .columns(['company_id', 'kind', 'at'])
    .execute();
  // One offer per turn: every console that lists the call records the same turn once.
  await db.schema
    .createIndex('call_events_one_offer_per_turn')
    .on('call_events')
    .columns(['call_report_id', 'staff_id', 'at'])
    .unique()
    .where(sql.ref('kind'), '=', 'offered')
    .execute();

  await db.schema
    .createTable('call_quality')
    .addColumn('call_report_id', 'integer', (c) =>
      c.notNull().references('call_reports.id').onDelete('cascade'),
    )
    .addColumn('company_id', 'integer', (c) =>
      c.notNull().references('companies.id').onDelete('cascade'),
    )
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('guest', 'agent')`))
    .addColumn('reported_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('setup_ms', 'integer')
    .addColumn('local_candidate_type', 'text')
    .addColumn('remote_candidate_type', 'text')
    .addColumn('relay_protocol', 'text')
    .addColumn('packets_received', 'bigint')
    .addColumn('packets_lost', 'bigint')
    .addColumn('jitter_ms', 'real')
    .addColumn('round_trip_ms', 'real')
    .addColumn('send_kbps', 'real')
    .addColumn('receive_kbps', 'real')
    .addColumn('reconnects', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ice_failed', 'boolean', (c) => c.notNull().defaultTo(false))
    .addPrimaryKeyConstraint('call_quality_pk', ['call_report_id', 'role'])
    .execute();
  await db.schema
    .createIndex('call_quality_company_reported')
    .on('call_quality')
    .columns(['company_id', 'reported_at'])
    .execute();

  await db.schema
    .createTable('call_recordings')
    .addColumn('call_report_id', 'integer', (c) =>
      c.primaryKey().references('call_reports.id').onDelete('cascade'),
    )
    .addColumn('company_id', 'integer', (c) =>
      c.notNull().references('companies.id').onDelete('cascade'),
    )
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('pending', 'ready', 'failed', 'empty')`),
    )
    .addColumn('file_name', 'text')
    .addColumn('size_bytes', 'bigint')
    .addColumn('duration_ms', 'integer')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('call_recordings_company_status')
    .on('call_recordings')
    .columns(['company_id', 'status'])
    .execute();

  const comments: Record<string, string> = {
    'call_reports.ended_by':
      'Who ended the call: the guest, the agent, or the server (a newer call of the guest, a hold-call, a sweep). `null` while live.',
    'call_events.kind':
      '`offered` (round robin offered the waiting call to `staff_id` from `at` to `until`), `held` and `resumed` (by the agent `staff_id`), `transfer_requested` (`details`: `toStaffId` or `toCategoryId`).',
    'call_events.details': 'What the kind needs beyond who and when; `null` for most kinds.',
    'call_quality.role': 'Which side measured: the guest page or the agent console.',
    'call_quality.setup_ms':
      'From accepting the call to the first remote frame (or sound, for voice); `null` when media never arrived.',
    'call_quality.local_candidate_type':
      'The ICE candidate type the selected pair used on this side: host, srflx, prflx or relay.',
    'call_quality.relay_protocol':
      'How this side reached its TURN relay (udp, tcp, tls) when its candidate was a relay.',
    'call_quality.round_trip_ms': 'The last round-trip time of the selected candidate pair.',
    'call_quality.reconnects': 'How many times this side re-established its media during the call.',
    'call_quality.ice_failed': 'ICE failed on this side (the report was sent from the failure).',
    'call_recordings.status':
      '`pending` (merge queued or running), `ready` (`file_name` plays), `failed` (after its retries; `last_error`), `empty` (no media was recorded).',
    'call_recordings.file_name': "The merged MP4 in the data folder's recordings/.",
    'call_recordings.attempts': 'Merge attempts so far (the job queue retries a failed merge).',
  };
  for (const [column, text] of Object.entries(comments)) {
    await sql`comment on column ${sql.ref(column)} is ${sql.lit(text)}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('call_recordings').execute();
  await db.schema.dropTable('call_quality').execute();
  await db.schema.dropTable('call_events').execute();
  await db.schema.alterTable('call_reports').dropColumn('ended_by').execute();
}
