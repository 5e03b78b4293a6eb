import { sql, type Kysely, type Transaction } from 'kysely';
import {
  MAX_CATEGORIES,
  type AdminCategory,
  type CategoryCreateBody,
  type CategoryUpdateBody,
} from '@frontdesk/protocol';
import { SESSION_TTL_MS } from '../auth/sessions.ts';
import { changeCompany, type CompanyChangeOptions } from '../audit/company-changes.ts';
import type { Database } from '../db/schema.ts';
import { ConflictError, InvalidInputError, NotFoundError } from '../domain-errors.ts';
import { conferenceSlug } from './company-creation.ts';
import { requireCompany } from './company-repository.ts';

/** The company's live (not deleted) categories, in their order, with the agents serving each. */
export async function listAdminCategories(
  db: Kysely<Database>,
  companyId: number,
): Promise<AdminCategory[]> {
  const rows = await db
    .selectFrom('categories as c')
    .select((eb) => [
      'c.id',
      'c.name',
      'c.room_name as roomName',
      'c.position',
      'c.text_color as textColor',
      'c.background_color as backgroundColor',
      eb
        .selectFrom('staff_categories as sc')
        .select(
          sql<number[]>`coalesce(array_agg(sc.staff_id order by sc.staff_id), '{}')`.as('ids'),
        )
        .whereRef('sc.category_id', '=', 'c.id')
        .as('agentIds'),
    ])
    .where('c.company_id', '=', companyId)
    .where('c.deleted_at', 'is', null)
    .orderBy('c.position')
    .orderBy('c.id')
    .execute();
  return rows.map((row) => ({ ...row, agentIds: row.agentIds ?? [] }));
}

async function requireAdminCategory(
  db: Kysely<Database>,
  companyId: number,
  categoryId: number,
): Promise<AdminCategory> {
  const category = (await listAdminCategories(db, companyId)).find((c) => c.id === categoryId);
  if (!category) {
    throw new NotFoundError(
      'category_not_found',
      `Company ${companyId} has no category ${categoryId}.`,
    );
  }
  return category;
}

/** 400 naming `agentIds` unless every id is a member of the company's staff. */
async function assertOwnStaff(
  trx: Transaction<Database>,
  companyId: number,
  agentIds: readonly number[],
): Promise<void> {
  if (agentIds.length === 0) return;
  const found = await trx
    .selectFrom('staff')
    .select('id')
    .where('company_id', '=', companyId)
    .where('id', 'in', agentIds)
    .execute();
  if (found.length !== agentIds.length) {
    const own = new Set(found.map((row) => row.id));
    const strangers = agentIds.filter((id) => !own.has(id));
    throw new InvalidInputError(
      'unknown_agent',
      `Company ${companyId} has no member of staff ${strangers.join(', ')}.`,
      {
        agentIds: `${strangers.join(', ')} ${strangers.length === 1 ? 'is' : 'are'} not of the company`,
      },
    );
  }
}

async function setServingAgents(
  trx: Transaction<Database>,
  categoryId: number,
  agentIds: readonly number[],
): Promise<void> {
  await trx.deleteFrom('staff_categories').where('category_id', '=', categoryId).execute();
  if (agentIds.length === 0) return;
  await trx
    .insertInto('staff_categories')
    .values(agentIds.map((staffId) => ({ staff_id: staffId, category_id: categoryId })))
    .execute();
}

/**
 * A chat room name for a new category, as the seed names them: the company's room, a dash and
 * the category's name (`frontdesk-demo-sales`), numbered when taken (`…-sales-2`); room names
 * are unique across companies and never reused, as a deleted category keeps its own.
 */
async function newRoomName(
  trx: Transaction<Database>,
  conferenceName: string,
  name: string,
): Promise<string> {
  const base = `${conferenceName}-${conferenceSlug(name)}`;
  const taken = new Set(
    (
      await trx
        .selectFrom('categories')
        .select('room_name')
        .where(sql<boolean>`room_name = ${base} or room_name ~ ${`^${base}-[0-9]+$`}`)
        .execute()
    ).map((row) => row.room_name),
  );
  let roomName = base;
  for (let n = 2; taken.has(roomName); n += 1) roomName = `${base}-${n}`;
  return roomName;
}

/**
 * `POST /company/:id/categories`: a new category, last unless a position is given; 409 once the
 * company has {@link MAX_CATEGORIES}.
 */
export async function createCategory(
  db: Kysely<Database>,
  options: CompanyChangeOptions,
  body: CategoryCreateBody,
): Promise<{ result: AdminCategory; version: number }> {
  const { companyId } = options;
  return changeCompany(db, options, async (trx) => {
    const company = await requireCompany(trx, companyId);
    const agentIds = body.agentIds ?? [];
    await assertOwnStaff(trx, companyId, agentIds);
    const { last, count } = await trx
      .selectFrom('categories')
      .select((eb) => [
        eb.fn.coalesce(eb.fn.max('position'), sql.lit(-1)).as('last'),
        eb.fn.countAll<string>().as('count'),
      ])
      .where('company_id', '=', companyId)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    // Counted under changeCompany's lock on the company: two creations at once cannot pass it.
    if (Number(count) >= MAX_CATEGORIES) {
      throw new ConflictError(
        'too_many_categories',
        `Company ${companyId} has ${MAX_CATEGORIES} categories, the most it may have: delete one first.`,
      );
    }
    const { id } = await trx
      .insertInto('categories')
      .values({
        company_id: companyId,
        name: body.name,
        room_name: await newRoomName(trx, company.conference_name, body.name),
        position: body.position ?? last + 1,
        text_color: body.textColor ?? null,
        background_color: body.backgroundColor ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await setServingAgents(trx, id, agentIds);
    const created = await requireAdminCategory(trx, companyId, id);
    return {
      action: 'category.create',
      target: `category ${id}`,
      before: null,
      after: created,
      result: created,
    };
  });
}

/** `PATCH /company/:id/categories/:categoryId`: the fields named; its room keeps its name. */
export async function updateCategory(
  db: Kysely<Database>,
  options: CompanyChangeOptions,
  categoryId: number,
  body: CategoryUpdateBody,
): Promise<{ result: AdminCategory; version: number }> {
  const { companyId } = options;
  return changeCompany(db, options, async (trx) => {
    const old = await requireAdminCategory(trx, companyId, categoryId);
    if (body.agentIds) {
      await assertOwnStaff(trx, companyId, body.agentIds);
      await setServingAgents(trx, categoryId, body.agentIds);
    }
    const columns = {
      ...(body.name === undefined ? {} : { name: body.name }),
      ...(body.position === undefined ? {} : { position: body.position }),
      ...(body.textColor === undefined ? {} : { text_color: body.textColor }),
      ...(body.backgroundColor === undefined ? {} : { background_color: body.backgroundColor }),
    };
    // A change of agents alone touches no column of the category.
    if (Object.keys(columns).length > 0) {
      await trx.updateTable('categories').set(columns).where('id', '=', categoryId).execute();
    }
    const updated = await requireAdminCategory(trx, companyId, categoryId);
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    for (const field of Object.keys(body) as (keyof CategoryUpdateBody)[]) {
      if (JSON.stringify(old[field]) === JSON.stringify(updated[field])) continue;
      before[field] = old[field];
      after[field] = updated[field];
    }
    return {
      action: 'category.update',
      target: `category ${categoryId}`,
      before,
      after,
      result: updated,
    };
  });
}

/** `PUT /company/:id/categories/order`: `categoryIds` must name every live category once. */
export async function reorderCategories(
  db: Kysely<Database>,
  options: CompanyChangeOptions,
  categoryIds: readonly number[],
): Promise<{ result: AdminCategory[]; version: number }> {
  const { companyId } = options;
  return changeCompany(db, options, async (trx) => {
    const current = await listAdminCategories(trx, companyId);
    const named = new Set(categoryIds);
    if (current.length !== categoryIds.length || current.some((c) => !named.has(c.id))) {
      throw new InvalidInputError(
        'incomplete_order',
        `Name every category of company ${companyId} once: ${current.map((c) => c.id).join(', ')}.`,
        { categoryIds: 'must name every category of the company once' },
      );
    }
    for (const [position, id] of categoryIds.entries()) {
      await trx.updateTable('categories').set({ position }).where('id', '=', id).execute();
    }
    return {
      action: 'category.reorder',
      target: `company ${companyId}`,
      before: { order: current.map((c) => c.id) },
      after: { order: categoryIds },
      result: await listAdminCategories(trx, companyId),
    };
  });
}

/**
 * `DELETE /company/:id/categories/:categoryId`: refused (409) while a call of the category waits
 * or runs, or is being handed to it. Otherwise the category is marked deleted rather than
 * removed: guests and admins no longer see it and no call can start in it, but the reports of
 * its past calls keep naming it.
 */
export async function deleteCategory(
  db: Kysely<Database>,
  options: CompanyChangeOptions,
  categoryId: number,
): Promise<{ version: number }> {
  const { companyId } = options;
  return changeCompany(db, options, async (trx) => {
    const old = await requireAdminCategory(trx, companyId, categoryId);
    const live = await trx
      .selectFrom('call_reports')
      .select('call_id')
      .where((eb) =>
        eb.or([eb('category_id', '=', categoryId), eb('transfer_to_category_id', '=', categoryId)]),
      )
      .where('status', '=', 'ok')
      .where('ended_at', 'is', null)
      // As the console's queue: a call older than a login cannot still be live.
      .where('created_at', '>', new Date(Date.now() - SESSION_TTL_MS))
      .limit(1)
      .executeTakeFirst();
    if (live) {
      throw new ConflictError(
        'category_has_live_calls',
        `Category ${categoryId} has calls waiting or under way: delete it once they have ended.`,
      );
    }
    await trx
      .updateTable('categories')
      .set({ deleted_at: sql<Date>`now()` })
      .where('id', '=', categoryId)
      .execute();
    await setServingAgents(trx, categoryId, []);
    return {
      action: 'category.delete',
      target: `category ${categoryId}`,
      before: old,
      after: null,
      result: null,
    };
  });
}

/**
 * Which agents serve each category of the company that names any (categories with none are
 * left out): round robin offers a category's calls to these (docs/admin-api.md, "Categories").
 */
export async function servingAgentsByCategory(
  db: Kysely<Database>,
  companyId: number,
): Promise<Map<number, number[]>> {
  const rows = await db
    .selectFrom('staff_categories as sc')
    .innerJoin('categories as c', 'c.id', 'sc.category_id')
    .select(['sc.category_id', 'sc.staff_id'])
    .where('c.company_id', '=', companyId)
    .orderBy('sc.staff_id')
    .execute();
  const serving = new Map<number, number[]>();
  for (const row of rows) {
    serving.set(row.category_id, [...(serving.get(row.category_id) ?? []), row.staff_id]);
  }
  return serving;
}
