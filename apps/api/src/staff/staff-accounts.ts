import type { Kysely, Selectable, Transaction } from 'kysely';
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
import { ConflictError, NotFoundError } from '../domain-errors.ts';
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

const toEntry = (row: EntryRow): StaffAdminEntry => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: row.role,
  active: row.active,
  oneTimePasswordExpiresAt: row.one_time_password_expires_at?.toISOString() ?? null,
  createdAt: row.created_at.toISOString(),
});

/** `GET /company/:id/staff`: every member, deactivated ones too, in the order they joined. */
export async function listCompanyStaff(
  db: Kysely<Database>,
  companyId: number,
): Promise<StaffAdminEntry[]> {
  const rows = await db
    .selectFrom('staff')
    .select(ENTRY_COLUMNS)
    .where('company_id', '=', companyId)
    .orderBy('id')
    .execute();
  return rows.map(toEntry);
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
          member: toEntry(row),
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

/** What `PATCH /company/:id/staff/:staffId` did, for the route to finish (the chat). */
export type StaffUpdated = { member: StaffAdminEntry; deactivated: boolean; reactivated: boolean };

/**
 * `PATCH /company/:id/staff/:staffId`: name, role, active. Deactivation ends every sign-in of the
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
    const row =
      changed.length === 0
        ? member
        : await trx
            .updateTable('staff')
            .set(updates)
            .where('id', '=', staffId)
            .returning(ENTRY_COLUMNS)
            .executeTakeFirstOrThrow();
    if (deactivated) await revokeStaffSessions(trx, staffId);
    return {
      action: deactivated ? 'staff.deactivate' : 'staff.update',
      target: `staff ${staffId}`,
      before: Object.fromEntries(changed.map((field) => [field, member[field]])),
      after: updates,
      result: {
        member: toEntry(row),
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
