import { sql, type Kysely } from 'kysely';
import {
  companySettingsSchema,
  DEFAULT_AVERAGE_WAIT_MS,
  isOpenAt,
  type Category,
  type CompanyDetails,
  type Form,
  type Schedule,
} from '@frontdesk/protocol';
import type { CompanyRow, Database, FormKind, FormRow } from '../db/schema.ts';
import { NotFoundError } from '../domain-errors.ts';
import { mucService } from '../xmpp/addresses.ts';
import { loadTimetable, UPCOMING_EXCEPTIONS } from './schedule-repository.ts';

/** The company, or 404 naming the id (every route that takes a company id answers so). */
export async function requireCompany(db: Kysely<Database>, id: number): Promise<CompanyRow> {
  const company = await db
    .selectFrom('companies')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!company) throw new NotFoundError('company_not_found', `There is no company ${id}.`);
  return company;
}

/** How many of a category's latest answered calls its queue estimate averages. */
const WAIT_SAMPLE = 20;

/**
 * The company's categories with their queue estimate: the mean wait (answered − created) of
 * each one's last {@link WAIT_SAMPLE} answered calls, in one query that reads at most that many
 * reports a category through an index.
 */
export async function listCategories(db: Kysely<Database>, companyId: number): Promise<Category[]> {
  return db
    .selectFrom('categories as c')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom((inner) =>
            inner
              .selectFrom('call_reports as r')
              .select(['r.created_at', 'r.answered_at'])
              .whereRef('r.category_id', '=', 'c.id')
              .where('r.answered_at', 'is not', null)
              .orderBy('r.answered_at', 'desc')
              .limit(WAIT_SAMPLE)
              .as('recent'),
          )
          .select(
            sql<
              number | null
            >`round(avg(extract(epoch from recent.answered_at - recent.created_at) * 1000))::integer`.as(
              'ms',
            ),
          )
          .as('wait'),
      (join) => join.onTrue(),
    )
    .select((eb) => [
      'c.id',
      'c.name',
      'c.room_name as roomName',
      'c.text_color as textColor',
      'c.background_color as backgroundColor',
      eb.fn.coalesce('wait.ms', sql.lit(DEFAULT_AVERAGE_WAIT_MS)).as('averageWaitMs'),
    ])
    .where('c.company_id', '=', companyId)
    .where('c.deleted_at', 'is', null)
    .orderBy('c.position')
    .orderBy('c.id')
    .execute();
}

/** The company's current form of `kind` (not one it replaced or deleted), when it has one. */
export async function findForm(
  db: Kysely<Database>,
  companyId: number,
  kind: FormKind,
): Promise<FormRow | undefined> {
  return db
    .selectFrom('forms')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('kind', '=', kind)
    .where('retired_at', 'is', null)
    .executeTakeFirst();
}

/** The timetable guests get: upcoming exceptions only, `openNow` as of `now`. */
async function loadSchedule(
  db: Kysely<Database>,
  companyId: number,
  now: Date,
): Promise<Schedule | null> {
  const timetable = await loadTimetable(db, companyId, now, UPCOMING_EXCEPTIONS);
  return timetable && { ...timetable, openNow: isOpenAt(timetable, now) };
}

/** A form row as the guest (and the admin) reads it; `null` for none. */
export const toForm = (row: FormRow | undefined): Form | null =>
  row ? { id: row.id, title: row.title, fields: row.fields } : null;

/**
 * Everything the guest needs about a company before logging in (spec §3), defaults filled in.
 * SECURITY: this is public, so it is assembled field by field and never carries a secret.
 */
export async function loadCompanyDetails(
  db: Kysely<Database>,
  id: number,
  xmppDomain: string,
  now: Date,
): Promise<CompanyDetails> {
  const company = await requireCompany(db, id);
  const [categories, schedule, welcomeForm, ratingForm] = await Promise.all([
    listCategories(db, id),
    loadSchedule(db, id, now),
    findForm(db, id, 'welcome'),
    findForm(db, id, 'rating'),
  ]);
  return {
    ...companySettingsSchema.parse(company.settings),
    id: company.id,
    version: company.version,
    name: company.name,
    activated: company.activated,
    conferenceName: company.conference_name,
    host: mucService(xmppDomain),
    schedule,
    categories,
    welcomeForm: toForm(welcomeForm),
    welcomeFormTitle: welcomeForm?.title ?? null,
    ratingForm: toForm(ratingForm),
  };
}
