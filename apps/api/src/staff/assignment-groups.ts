/**
 * Who belongs to which assignment group (decision 0019). A membership names a group by the id
 * of the company's `assignmentGroups`; one the company no longer lists is kept but counts for
 * nothing (not shown, not offered), so putting the group back (an Undo of the settings' save)
 * brings its members back with it.
 */
import type { Kysely, Transaction } from 'kysely';
import { companySettingsSchema, type CompanySettings } from '@frontdesk/protocol';
import { requireCompany } from '../companies/company-repository.ts';
import type { Database } from '../db/schema.ts';
import { InvalidInputError } from '../domain-errors.ts';

/** The settings that give memberships their meaning: whether groups are used, and which exist. */
export type GroupSettings = Pick<CompanySettings, 'assignments' | 'assignmentGroups'>;

/** The company's assignment settings as stored now. */
export async function groupSettingsOf(
  db: Kysely<Database>,
  companyId: number,
): Promise<GroupSettings> {
  const company = await requireCompany(db, companyId);
  const { assignments, assignmentGroups } = companySettingsSchema.parse(company.settings);
  return { assignments, assignmentGroups };
}

/** The ids among `groupIds` that the company still lists, in the company's order. */
export function currentGroupIds(settings: GroupSettings, groupIds: readonly string[]): string[] {
  return settings.assignmentGroups.map((group) => group.id).filter((id) => groupIds.includes(id));
}

/** The members of each of the company's groups, in id order (groups it no longer lists too). */
export async function groupMembers(
  db: Kysely<Database>,
  companyId: number,
): Promise<Map<string, number[]>> {
  const rows = await db
    .selectFrom('staff_assignment_groups')
    .select(['group_id', 'staff_id'])
    .where('company_id', '=', companyId)
    .orderBy('staff_id')
    .execute();
  const members = new Map<string, number[]>();
  for (const row of rows)
    members.set(row.group_id, [...(members.get(row.group_id) ?? []), row.staff_id]);
  return members;
}

/**
 * Replaces the current groups `staffId` belongs to with `groupIds`. 400 naming
 * `assignmentGroupIds` unless each is one of the company's `assignmentGroups`. Memberships of
 * groups the company no longer lists stay as they were. Answers the current groups the member
 * belonged to before, for the audit log.
 */
export async function setMemberGroups(
  trx: Transaction<Database>,
  settings: GroupSettings,
  companyId: number,
  staffId: number,
  groupIds: readonly string[],
): Promise<string[]> {
  const known = settings.assignmentGroups.map((group) => group.id);
  const strangers = groupIds.filter((id) => !known.includes(id));
  if (strangers.length > 0) {
    throw new InvalidInputError(
      'unknown_assignment_group',
      `Company ${companyId} has no assignment group ${strangers.join(', ')}.`,
      { assignmentGroupIds: `${strangers.join(', ')} not an assignment group of the company` },
    );
  }
  const before =
    known.length === 0
      ? []
      : await trx
          .deleteFrom('staff_assignment_groups')
          .where('staff_id', '=', staffId)
          .where('group_id', 'in', known)
          .returning('group_id')
          .execute();
  if (groupIds.length > 0) {
    await trx
      .insertInto('staff_assignment_groups')
      .values(
        groupIds.map((groupId) => ({
          staff_id: staffId,
          company_id: companyId,
          group_id: groupId,
        })),
      )
      .execute();
  }
  return currentGroupIds(
    settings,
    before.map((row) => row.group_id),
  );
}

/**
 * What the member serves, for the console's queue to show first: the categories round robin
 * offers them, and the groups the company still lists that they belong to.
 */
export async function servedBy(
  db: Kysely<Database>,
  settings: GroupSettings,
  staffId: number,
): Promise<{ categoryIds: number[]; assignmentGroupIds: string[] }> {
  const [categories, groups] = await Promise.all([
    db
      .selectFrom('staff_categories')
      .select('category_id')
      .where('staff_id', '=', staffId)
      .orderBy('category_id')
      .execute(),
    db
      .selectFrom('staff_assignment_groups')
      .select('group_id')
      .where('staff_id', '=', staffId)
      .execute(),
  ]);
  return {
    categoryIds: categories.map((row) => row.category_id),
    assignmentGroupIds: currentGroupIds(
      settings,
      groups.map((row) => row.group_id),
    ),
  };
}
