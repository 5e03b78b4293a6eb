import { sql, type Kysely } from 'kysely';

/**
 * Company admin (issue 16), what admins edit beyond the settings: a category's own colours and
 * the agents who serve it, categories and forms retired rather than deleted (call reports and
 * submissions keep what they referred to), and block-list entries an admin can name (an id) and
 * trace to the call they were made from.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('categories')
    .addColumn('text_color', 'text', (c) => c.check(sql`text_color ~ '^#[0-9a-fA-F]{6}$'`))
    .addColumn('background_color', 'text', (c) =>
      c.check(sql`background_color ~ '^#[0-9a-fA-F]{6}$'`),
    )
    .addColumn('deleted_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('staff_categories')
    .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff.id').onDelete('cascade'))
    .addColumn('category_id', 'integer', (c) =>
      c.notNull().references('categories.id').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('staff_categories_pk', ['staff_id', 'category_id'])
    .execute();
  await db.schema
    .createIndex('staff_categories_category')
    .on('staff_categories')
    .column('category_id')
    .execute();

  await db.schema.alterTable('forms').addColumn('retired_at', 'timestamptz').execute();
  await db.schema.alterTable('forms').dropConstraint('forms_one_per_kind').execute();
  await db.schema
    .createIndex('forms_current_per_kind')
    .on('forms')
    .columns(['company_id', 'kind'])
    .unique()
    .where(sql.ref('retired_at'), 'is', null)
    .execute();

  await db.schema
    .alterTable('guest_blocks')
    .addColumn('id', 'serial', (c) => c.unique())
    .addColumn('call_id', 'text')
    .execute();

  const comments: Record<string, string> = {
    'categories.text_color': "The category's own text colour (#rrggbb); `null`: the company's.",
    'categories.background_color':
      "The category's own background colour (#rrggbb); `null`: the company's.",
    'categories.deleted_at':
      'Set when an admin deletes it: guests and admins no longer see it; reports keep it.',
    'staff_categories.staff_id':
      "An agent who serves the category: round robin offers the category's calls to its agents only.",
    'forms.retired_at':
      'Set when the form is replaced or deleted; its submissions keep pointing at it.',
    'guest_blocks.id': 'What an admin names the entry by (unblock).',
    'guest_blocks.call_id': 'The call the guest was blocked from, when blocked by call.',
  };
  for (const [column, text] of Object.entries(comments)) {
    await sql`comment on column ${sql.ref(column)} is ${sql.lit(text)}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('guest_blocks').dropColumn('call_id').dropColumn('id').execute();
  await db.schema.dropIndex('forms_current_per_kind').execute();
  await db.schema.alterTable('forms').dropColumn('retired_at').execute();
  await db.schema
    .alterTable('forms')
    .addUniqueConstraint('forms_one_per_kind', ['company_id', 'kind'])
    .execute();
  await db.schema.dropTable('staff_categories').execute();
  await db.schema
    .alterTable('categories')
    .dropColumn('deleted_at')
    .dropColumn('background_color')
    .dropColumn('text_color')
    .execute();
}
