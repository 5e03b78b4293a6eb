import { sql, type Kysely } from 'kysely';

/**
 * Assignment groups (issue 16, decision 0019): the group a guest picks for a call when the
 * company turns `assignments` on, kept on the call's report, and which members of staff belong to
 * each group, so round robin offers the group's calls to its members first. Groups themselves are
 * company settings (`assignmentGroups`, ids chosen by the admin); a membership names a group by
 * its id, and counts only while the company still lists that id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('call_reports').addColumn('assignment_group', 'text').execute();

  await db.schema
    .createTable('staff_assignment_groups')
    .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff.id').onDelete('cascade'))
    .addColumn('company_id', 'integer', (c) =>
      c.notNull().references('companies.id').onDelete('cascade'),
    )
    .addColumn('group_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('staff_assignment_groups_pk', ['staff_id', 'group_id'])
    .execute();
  await db.schema
    .createIndex('staff_assignment_groups_company')
    .on('staff_assignment_groups')
    .columns(['company_id', 'group_id'])
    .execute();

  const comments: Record<string, string> = {
    'call_reports.assignment_group':
      "The id of the company's assignment group the guest picked; kept through holds and transfers. `null`: none picked.",
    'staff_assignment_groups.staff_id':
      "A member of the group: round robin offers the group's calls to its available members first.",
    'staff_assignment_groups.company_id':
      "The member's company, whose `assignmentGroups` list the group.",
    'staff_assignment_groups.group_id':
      "An id of the company's `assignmentGroups`; ignored while the company no longer lists it (an Undo brings it back).",
  };
  for (const [column, text] of Object.entries(comments)) {
    await sql`comment on column ${sql.ref(column)} is ${sql.lit(text)}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('staff_assignment_groups').execute();
  await db.schema.alterTable('call_reports').dropColumn('assignment_group').execute();
}
