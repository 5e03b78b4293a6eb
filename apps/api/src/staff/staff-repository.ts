import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import {
  AVAILABILITY_REPORT_INTERVAL_MS,
  type AgentAvailability,
  type Colleague,
} from '@frontdesk/protocol';
import type { Database, StaffTable } from '../db/schema.ts';
import { staffJabberUsername } from '../xmpp/addresses.ts';

/**
 * A report counts this long: a few missed repeats (a slow network, a throttled background tab)
 * are forgiven, a closed console is not offered calls for long.
 */
const AVAILABILITY_VALID_MS = 3 * AVAILABILITY_REPORT_INTERVAL_MS;

/** Reports made before this no longer count. */
const staleBefore = () => sql<Date>`now() - make_interval(secs => ${AVAILABILITY_VALID_MS / 1000})`;

/**
 * The member of staff who signs in with `email` (already lower-cased), active or not: sign-in
 * tells an inactive account apart only after the password check.
 */
export async function findStaffByEmail(
  db: Kysely<Database>,
  email: string,
): Promise<Selectable<StaffTable> | undefined> {
  return db.selectFrom('staff').selectAll().where('email', '=', email).executeTakeFirst();
}

/**
 * What a guest calls the agent who took its call: the first word of the member's name ("Cy" of
 * "Cy Agent"), no more of a person than a name badge shows. `null` for no agent.
 */
export async function agentFirstName(
  db: Kysely<Database>,
  staffId: number | null,
): Promise<string | null> {
  if (staffId === null) return null;
  const row = await db
    .selectFrom('staff')
    .select('name')
    .where('id', '=', staffId)
    .executeTakeFirst();
  return row?.name.trim().split(/\s+/)[0] || null;
}

/** `GET /api/staff`: the company's staff by id, as the console names them. */
export async function listColleagues(
  db: Kysely<Database>,
  companyId: number,
): Promise<Colleague[]> {
  const rows = await db
    .selectFrom('staff')
    .select(['id', 'name', 'role'])
    .where('company_id', '=', companyId)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ ...row, jabberUsername: staffJabberUsername(row.id) }));
}

/**
 * `PUT /api/staff/me/availability`: stamped with the database's clock. True when the report
 * changes what colleagues see of the member: another availability, or the first report after
 * none counted.
 */
export async function reportAvailability(
  db: Kysely<Database>,
  staffId: number,
  availability: AgentAvailability,
): Promise<boolean> {
  // The joined row is read before the update: it holds the previous report.
  const updated = await db
    .updateTable('staff')
    .from('staff as before')
    .set({ availability, availability_at: sql<Date>`now()` })
    .whereRef('before.id', '=', 'staff.id')
    .where('staff.id', '=', staffId)
    .returning(
      sql<boolean>`before.availability <> ${availability}
        or before.availability_at is null or before.availability_at <= ${staleBefore()}`.as(
        'changed',
      ),
    )
    .executeTakeFirst();
  return updated?.changed ?? false;
}

/** A member's sign-in that has neither been revoked (sign-out) nor expired. */
export const hasLiveSignIn = ({ exists, selectFrom }: ExpressionBuilder<Database, 'staff'>) =>
  exists(
    selectFrom('sessions')
      .select('sessions.id')
      .whereRef('sessions.staff_id', '=', 'staff.id')
      .where('sessions.revoked_at', 'is', null)
      .where('sessions.expires_at', '>', sql<Date>`now()`),
  );

/** The member's last availability report still counts (see {@link AVAILABILITY_VALID_MS}). */
export const hasFreshReport = (eb: ExpressionBuilder<Database, 'staff'>) =>
  eb('staff.availability_at', '>', staleBefore());

/**
 * The ids of the company's staff who reported themselves available lately, in id order.
 * SECURITY: only active members with a live sign-in: a member deactivated or signed out moments
 * after a report is offered no call (nor told its guest's name) while that report still counts.
 */
export async function availableStaffIds(
  db: Kysely<Database>,
  companyId: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom('staff')
    .select('id')
    .where('company_id', '=', companyId)
    .where('active', '=', true)
    .where('availability', '=', 'available')
    .where(hasFreshReport)
    .where(hasLiveSignIn)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}
