import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type {
  OneTimePassword,
  StaffAdminEntry,
  StaffInviteBody,
  StaffInvited,
  StaffUpdateBody,
} from '@frontdesk/protocol';
import { changeCompany, type CompanyChangeOptions } from '../audit/company-changes.ts';
import { generatePassword, hashPassword } from '../auth/password.ts';
import { revokeStaffSessions } from '../auth/sessions.ts';
import { isUniqueViolation } from '../companies/company-creation.ts';
import type { Database, StaffTable } from '../db/schema.ts';
import { ConflictError, InvalidInputError, NotFoundError } from '../domain-errors.ts';
import {
  currentGroupIds,
  groupSettingsOf,
  setMemberGroups,
  type GroupSettings,
} from './assignment-groups.ts';
import { oneTimePasswordExpiry } from './one-time-passwords.ts';

type StaffRow = Selectable<StaffTable>;

const ENTRY_COLUMNS = [
  'id',
  'email',
  'name',
  'role',
  'active',
  'one_time_password_expires_at',
  'created_at',
] as const;

type EntryRow = Pick<StaffRow, (typeof ENTRY_COLUMNS)[number]>;

const toEntry = (
  row: EntryRow,
  categoryIds: number[],
  assignmentGroupIds: string[],
): StaffAdminEntry => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  active: row.active,
  oneTimePasswordExpiresAt: row.one_time_password_expires_at?.toISOString() ?? null,
  categoryIds,
  assignmentGroupIds,
  createdAt: row.created_at.toISOString(),
});

/**
 * The company's members as admins see them, with the categories they serve and every group they
 * belong to (see {@link toEntryOf} for the groups that count).
 */
const staffEntries = (db: Kysely<Database>, companyId: number) =>
  db
    .selectFrom('staff')
    .select((eb) => [
      ...ENTRY_COLUMNS,
      eb
        .selectFrom('staff_categories as sc')
        .innerJoin('categories as c', 'c.id', 'sc.category_id')
        .select(sql<number[]>`coalesce(array_agg(c.id order by c.id), '{}')`.as('ids'))
        .whereRef('sc.staff_id', '=', 'staff.id')
        .where('c.deleted_at', 'is', null)
        .as('categoryIds'),
      eb
        .selectFrom('staff_assignment_groups as sg')
        .select(sql<string[]>`coalesce(array_agg(sg.group_id), '{}')`.as('ids'))
        .whereRef('sg.staff_id', '=', 'staff.id')
        .as('groupIds'),
    ])
    .where('company_id', '=', companyId);

/** A row of {@link staffEntries} as its entry: only the groups the company still lists. */
const toEntryOf =
  (settings: GroupSettings) =>
  (row: EntryRow & { categoryIds: number[] | null; groupIds: string[] | null }) =>
    toEntry(row, row.categoryIds ?? [], currentGroupIds(settings, row.groupIds ?? []));

/** `GET /company/:id/staff`: every member, deactivated ones too, in the order they joined. */
export async function listCompanyStaff(
  db: Kysely<Database>,
  companyId: number,
): Promise<StaffAdminEntry[]> {
  const [rows, settings] = await Promise.all([
    staffEntries(db, companyId).orderBy('id').execute(),
    groupSettingsOf(db, companyId),
  ]);
  return rows.map(toEntryOf(settings));
}

const emailTaken = () =>
  new ConflictError('email_taken', 'This e-mail already signs someone in: choose another.', {
    email: 'already signs someone in (e-mails are unique across the installation)',
  });

/** A one-time password and its hash; scrypt takes most of a second, so never inside a lock. */
async function newOneTimePassword(now: Date) {
  const password = generatePassword();
  return { password, hash: await hashPassword(password), expiresAt: oneTimePasswordExpiry(now) };
}

/**
 * `POST /company/:id/staff`: the member, with a one-time password for the admin to hand over
 * (decision 0017). A taken e-mail, of this company or another, is a conflict naming `email`
 * without saying whose it is.
 */
export async function inviteStaff(
  db: Kysely<Database>,
  change: CompanyChangeOptions,
  invite: StaffInviteBody,
): Promise<{ result: StaffInvited; version: number }> {
  const oneTime = await newOneTimePassword(new Date());
  try {
    return await changeCompany(db, change, async (trx) => {
      const taken = await trx
        .selectFrom('staff')
        .select('id')
        .where('email', '=', invite.email)
        .executeTakeFirst();
      if (taken) throw emailTaken();
      const row = await trx
        .insertInto('staff')
        .values({
          company_id: change.companyId,
          email: invite.email,
          name: invite.name,
          role: invite.role,
          password_hash: oneTime.hash,
          one_time_password_expires_at: oneTime.expiresAt,
        })
        .returning(ENTRY_COLUMNS)
        .executeTakeFirstOrThrow();
      return {
        action: 'staff.invite',
        target: `staff ${row.id}`,
        before: null,
        // SECURITY: never the password or its hash.
        after: { email: row.email, name: row.name, role: row.role },
        result: {
          member: toEntry(row, [], []),
          oneTimePassword: oneTime.password,
          expiresAt: oneTime.expiresAt.toISOString(),
        },
      };
    });
  } catch (error) {
    // Two invites of one e-mail at once (in two companies): the unique index refuses the second.
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
}

/** The member `staffId` of the company, locked for the change; 404 for anyone else's. */
async function memberOf(trx: Transaction<Database>, companyId: number, staffId: number) {
  const row = await trx
    .selectFrom('staff')
    .select(ENTRY_COLUMNS)
    .where('id', '=', staffId)
    .where('company_id', '=', companyId)
    .forUpdate()
    .executeTakeFirst();
  if (!row) {
    throw new NotFoundError('staff_not_found', `Company ${companyId} has no member ${staffId}.`);
  }
  return row;
}

/**
 * SECURITY: a company always keeps an active admin, or nobody could manage it again but the
 * platform operator. Runs under changeCompany's lock on the company, so two admins demoting each
 * other at once cannot both succeed.
 */
async function assertAnotherActiveAdmin(
  trx: Transaction<Database>,
  companyId: number,
  staffId: number,
  field: 'role' | 'active',
): Promise<void> {
  const other = await trx
    .selectFrom('staff')
    .select('id')
    .where('company_id', '=', companyId)
    .where('role', '=', 'admin')
    .where('active', '=', true)
    .where('id', '!=', staffId)
    .executeTakeFirst();
  if (!other) {
    throw new ConflictError(
      'last_admin',
      'This is the last active admin of the company: make another member admin first, so someone can still manage it.',
      { [field]: 'would leave the company without an active admin' },
    );
  }
}

/**
 * Replaces the categories `staffId` serves. 400 naming `categoryIds` unless each is a live
 * category of the company. Answers the ids it served before, for the audit log.
 */
async function setServedCategories(
  trx: Transaction<Database>,
  companyId: number,
  staffId: number,
  categoryIds: readonly number[],
): Promise<number[]> {
  const live = await trx
    .selectFrom('categories')
    .select('id')
    .where('company_id', '=', companyId)
    .where('deleted_at', 'is', null)
    .execute();
  const own = new Set(live.map((row) => row.id));
  const strangers = categoryIds.filter((id) => !own.has(id));
  if (strangers.length > 0) {
    throw new InvalidInputError(
      'unknown_category',
      `Company ${companyId} has no category ${strangers.join(', ')}.`,
      { categoryIds: `${strangers.join(', ')} not a category of the company` },
    );
  }
  const before = await trx
    .deleteFrom('staff_categories')
    .where('staff_id', '=', staffId)
    .where('category_id', 'in', [...own])
    .returning('category_id')
    .execute();
  if (categoryIds.length > 0) {
    await trx
      .insertInto('staff_categories')
      .values(categoryIds.map((categoryId) => ({ staff_id: staffId, category_id: categoryId })))
      .execute();
  }
  return before.map((row) => row.category_id).sort((a, b) => a - b);
}

/** What `PATCH /company/:id/staff/:staffId` did, for the route to finish (the chat). */
export type StaffUpdated = { member: StaffAdminEntry; deactivated: boolean; reactivated: boolean };

/**
 * `PATCH /company/:id/staff/:staffId`: name, role, active, categories served, assignment groups
 * (decision 0019). Deactivation ends every sign-in of the
 * member (so a later reactivation brings none back); a role change ends what their tokens of the
 * old role allowed (sessions.ts checks the role). Audited as `staff.deactivate` when it
 * deactivates, `staff.update` otherwise, with only the fields that changed.
 */
export async function updateStaff(
  db: Kysely<Database>,
  change: CompanyChangeOptions,
  staffId: number,
  update: StaffUpdateBody,
): Promise<{ result: StaffUpdated; version: number }> {
  return changeCompany(db, change, async (trx) => {
    const member = await memberOf(trx, change.companyId, staffId);
    const changed = (['name', 'role', 'active'] as const).filter(
      (field) => update[field] !== undefined && update[field] !== member[field],
    );
    const demoted = update.role === 'agent' && member.role === 'admin';
    const deactivated = update.active === false && member.active;
    if (member.role === 'admin' && member.active && (demoted || deactivated)) {
      await assertAnotherActiveAdmin(trx, change.companyId, staffId, demoted ? 'role' : 'active');
    }
    const updates = Object.fromEntries(changed.map((field) => [field, update[field]]));
    const before: Record<string, unknown> = Object.fromEntries(
      changed.map((field) => [field, member[field]]),
    );
    const after: Record<string, unknown> = { ...updates };
    if (changed.length > 0) {
      await trx.updateTable('staff').set(updates).where('id', '=', staffId).execute();
    }
    if (update.categoryIds !== undefined) {
      const served = await setServedCategories(trx, change.companyId, staffId, update.categoryIds);
      const wanted = [...update.categoryIds].sort((a, b) => a - b);
      if (served.join() !== wanted.join()) {
        before.categoryIds = served;
        after.categoryIds = wanted;
      }
    }
    // Read under changeCompany's lock: a settings save that removes a group waits for this one.
    const groups = await groupSettingsOf(trx, change.companyId);
    if (update.assignmentGroupIds !== undefined) {
      const belonged = await setMemberGroups(
        trx,
        groups,
        change.companyId,
        staffId,
        update.assignmentGroupIds,
      );
      const wanted = currentGroupIds(groups, update.assignmentGroupIds);
      if (belonged.join() !== wanted.join()) {
        before.assignmentGroupIds = belonged;
        after.assignmentGroupIds = wanted;
      }
    }
    if (deactivated) await revokeStaffSessions(trx, staffId);
    const row = await staffEntries(trx, change.companyId)
      .where('id', '=', staffId)
      .executeTakeFirstOrThrow();
    return {
      action: deactivated ? 'staff.deactivate' : 'staff.update',
      target: `staff ${staffId}`,
      before,
      after,
      result: {
        member: toEntryOf(groups)(row),
        deactivated,
        reactivated: update.active === true && !member.active,
      },
    };
  });
}

/**
 * `POST /company/:id/staff/:staffId/password-reset`: a new one-time password replaces the
 * member's password, and every sign-in of theirs ends. Audited as `staff.password-reset` with
 * the new password's expiry only.
 */
export async function resetStaffPassword(
  db: Kysely<Database>,
  change: CompanyChangeOptions,
  staffId: number,
): Promise<{ result: OneTimePassword; version: number }> {
  const oneTime = await newOneTimePassword(new Date());
  return changeCompany(db, change, async (trx) => {
    await memberOf(trx, change.companyId, staffId);
    await trx
      .updateTable('staff')
      .set({ password_hash: oneTime.hash, one_time_password_expires_at: oneTime.expiresAt })
      .where('id', '=', staffId)
      .execute();
    await revokeStaffSessions(trx, staffId);
    const expiresAt = oneTime.expiresAt.toISOString();
    return {
      action: 'staff.password-reset',
      target: `staff ${staffId}`,
      before: null,
      after: { oneTimePasswordExpiresAt: expiresAt },
      result: { oneTimePassword: oneTime.password, expiresAt },
    };
  });
}

/**
 * `POST /auth/password`: the member's own password replaces `currentHash` (a one-time password or
 * their own), and every earlier sign-in of theirs ends. `false` when the password changed in
 * between (a reset, or the one-time password already exchanged): it works once.
 */
export async function changeOwnPassword(
  db: Kysely<Database>,
  staffId: number,
  currentHash: string,
  newHash: string,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const changed = await trx
      .updateTable('staff')
      .set({ password_hash: newHash, one_time_password_expires_at: null })
      .where('id', '=', staffId)
      .where('password_hash', '=', currentHash)
      .executeTakeFirst();
    if (changed.numUpdatedRows === 0n) return false;
    await revokeStaffSessions(trx, staffId);
    return true;
  });
}
