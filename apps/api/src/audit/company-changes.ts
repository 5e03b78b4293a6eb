import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { InvalidInputError, NotFoundError, StaleVersionError } from '../domain-errors.ts';

/** The PostgreSQL channel every API process listens on to forget a changed company. */
export const COMPANY_CHANGED_CHANNEL = 'frontdesk_company_changed';

/** Who made a change, as the audit log keeps it. */
export type Actor = {
  /** `null` for the command line (create-company) and the platform operator. */
  staffId: number | null;
  /** What the log shows: the member's e-mail, or `command line`. */
  label: string;
};

/** The member of staff behind a request, named by e-mail in the log. */
export async function staffActor(db: Kysely<Database>, staffId: number): Promise<Actor> {
  const row = await db
    .selectFrom('staff')
    .select('email')
    .where('id', '=', staffId)
    .executeTakeFirstOrThrow();
  return { staffId, label: row.email };
}

/** What one edit did, for the audit log: only the fields it changed, before and after. */
export type ChangeRecord<T> = {
  /** e.g. `company.update`, `category.create`, `staff.deactivate`. */
  action: string;
  /** e.g. `company 12`, `category 40`. */
  target: string;
  before: unknown;
  after: unknown;
  /** What the route answers with. */
  result: T;
};

export type CompanyChangeOptions = {
  companyId: number;
  actor: Actor;
  /** The version the editor saw (`If-Match`); `undefined` when the request sent none. */
  expectedVersion?: number;
};

/**
 * The one way an edit of a company's settings, categories, timetable, forms, zones, block list,
 * quota or staff reaches the database: in one transaction that holds the company's row, it
 * refuses a stale `expectedVersion` (412), runs `edit`, bumps `companies.version` (the ETag of
 * `GET /company/:id`), writes the audit entry, and tells every API process to forget what it
 * keeps of the company (delivered by PostgreSQL at commit, so no process reloads it early).
 */
export async function changeCompany<T>(
  db: Kysely<Database>,
  { companyId, actor, expectedVersion }: CompanyChangeOptions,
  edit: (trx: Transaction<Database>) => Promise<ChangeRecord<T>>,
): Promise<{ result: T; version: number }> {
  return db.transaction().execute(async (trx) => {
    const company = await trx
      .selectFrom('companies')
      .select('version')
      .where('id', '=', companyId)
      .forUpdate()
      .executeTakeFirst();
    if (!company) throw new NotFoundError('company_not_found', `There is no company ${companyId}.`);
    if (expectedVersion !== undefined && expectedVersion !== company.version) {
      throw new StaleVersionError(
        'stale_version',
        `The company was changed since you loaded it (version ${company.version}, you had ${expectedVersion}): load it again and redo your change.`,
      );
    }
    const record = await edit(trx);
    const { version } = await trx
      .updateTable('companies')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('id', '=', companyId)
      .returning('version')
      .executeTakeFirstOrThrow();
    await recordAuditEntry(trx, companyId, actor, record);
    await sql`select pg_notify(${COMPANY_CHANGED_CHANNEL}, ${String(companyId)})`.execute(trx);
    return { result: record.result, version };
  });
}

/**
 * Writes one entry of a company's audit log in `trx`. {@link changeCompany} does it for every
 * edit; only the creation of a company (company-creation.ts), which has no row to lock or version
 * to check yet, calls it on its own.
 */
export async function recordAuditEntry(
  trx: Transaction<Database>,
  companyId: number,
  actor: Actor,
  record: Omit<ChangeRecord<unknown>, 'result'>,
): Promise<void> {
  await trx
    .insertInto('audit_entries')
    .values({
      company_id: companyId,
      staff_id: actor.staffId,
      actor: actor.label,
      action: record.action,
      target: record.target,
      before: record.before === undefined ? null : JSON.stringify(record.before),
      after: record.after === undefined ? null : JSON.stringify(record.after),
    })
    .execute();
}

/** The ETag of a company at `version`. */
export const companyEtag = (version: number): string => `"${version}"`;

/**
 * The version an `If-Match` header names (`"12"`, or `W/"12"`); `undefined` without the header
 * or for `*`. A header naming no version of ours is refused with the header named.
 */
export function versionFromIfMatch(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?"(\d{1,9})"\s*$/.exec(header);
  if (!match?.[1]) {
    throw new InvalidInputError(
      'invalid_if_match',
      'If-Match must be the ETag that GET /api/company/:id answered, e.g. "12".',
      { 'if-match': 'must be an ETag such as "12"' },
    );
  }
  return Number(match[1]);
}
