import type { Kysely } from 'kysely';
import {
  CANNED_REPLIES_MAX,
  type CannedReply,
  type CannedReplyBody,
  type CannedReplyUpdateBody,
} from '@frontdesk/protocol';
import { changeCompany, type CompanyChangeOptions } from '../audit/company-changes.ts';
import type { Database } from '../db/schema.ts';
import { ConflictError, NotFoundError } from '../domain-errors.ts';

type ReplyRow = { id: number; title: string; shortcut: string; text: string; updated_at: Date };

const COLUMNS = ['id', 'title', 'shortcut', 'text', 'updated_at'] as const;

const toReply = (row: ReplyRow): CannedReply => ({
  id: row.id,
  title: row.title,
  shortcut: row.shortcut,
  text: row.text,
  updatedAt: row.updated_at.toISOString(),
});

const shortcutTaken = (shortcut: string) =>
  new ConflictError(
    'shortcut_taken',
    `Another canned reply already has the shortcut /${shortcut}.`,
    {
      shortcut: 'is taken by another reply',
    },
  );

/** Whether a failed write broke the company's unique shortcut (PostgreSQL unique_violation). */
const isShortcutClash = (error: unknown) =>
  (error as { code?: unknown; constraint?: unknown }).code === '23505' &&
  (error as { constraint?: unknown }).constraint === 'canned_replies_shortcut';

/** The company's canned replies, by shortcut (issue 19 item 4). */
export async function listCannedReplies(
  db: Kysely<Database>,
  companyId: number,
): Promise<CannedReply[]> {
  const rows = await db
    .selectFrom('canned_replies')
    .select(COLUMNS)
    .where('company_id', '=', companyId)
    .orderBy('shortcut')
    .execute();
  return rows.map(toReply);
}

/** `POST /company/:id/canned-replies`: 409 for a shortcut taken, or past {@link CANNED_REPLIES_MAX}. */
export async function createCannedReply(
  db: Kysely<Database>,
  options: CompanyChangeOptions,
  body: CannedReplyBody,
): Promise<{ result: CannedReply; version: number }> {
  const { companyId } = options;
  return changeCompany(db, options, async (trx) => {
    const { count } = await trx
      .selectFrom('canned_replies')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('company_id', '=', companyId)
      .executeTakeFirstOrThrow();
    if (Number(count) >= CANNED_REPLIES_MAX) {
      throw new ConflictError(
        'too_many_replies',
        `A company keeps at most ${CANNED_REPLIES_MAX} canned replies: delete one first.`,
      );
    }
    const clash = await trx
      .selectFrom('canned_replies')
      .select('id')
      .where('company_id', '=', companyId)
      .where('shortcut', '=', body.shortcut)
      .executeTakeFirst();
    if (clash) throw shortcutTaken(body.shortcut);
    const row = await trx
      .insertInto('canned_replies')
      .values({ company_id: companyId, ...body })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    const reply = toReply(row);
    return {
      action: 'cannedReply.create',
      target: `canned reply ${reply.id}`,
      before: null,
      after: body,
      result: reply,
    };
  });
}

/** `PATCH /company/:id/canned-replies/:replyId`: 404 for no such reply of the company. */
export async function updateCannedReply(
  db: Kysely<Database>,
  options: CompanyChangeOptions,
  replyId: number,
  body: CannedReplyUpdateBody,
): Promise<{ result: CannedReply; version: number }> {
  const { companyId } = options;
  try {
    return await changeCompany(db, options, async (trx) => {
      const before = await trx
        .selectFrom('canned_replies')
        .select(['title', 'shortcut', 'text'])
        .where('company_id', '=', companyId)
        .where('id', '=', replyId)
        .forUpdate()
        .executeTakeFirst();
      if (!before) throw noSuchReply(companyId, replyId);
      const row = await trx
        .updateTable('canned_replies')
        .set({ ...body, updated_at: new Date() })
        .where('company_id', '=', companyId)
        .where('id', '=', replyId)
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      return {
        action: 'cannedReply.update',
        target: `canned reply ${replyId}`,
        before: Object.fromEntries(
          Object.keys(body).map((key) => [key, before[key as keyof typeof before]]),
        ),
        after: body,
        result: toReply(row),
      };
    });
  } catch (error) {
    if (isShortcutClash(error) && body.shortcut) throw shortcutTaken(body.shortcut);
    throw error;
  }
}

/** `DELETE /company/:id/canned-replies/:replyId`: 404 for no such reply of the company. */
export async function deleteCannedReply(
  db: Kysely<Database>,
  options: CompanyChangeOptions,
  replyId: number,
): Promise<{ version: number }> {
  const { companyId } = options;
  return changeCompany(db, options, async (trx) => {
    const removed = await trx
      .deleteFrom('canned_replies')
      .where('company_id', '=', companyId)
      .where('id', '=', replyId)
      .returning(['title', 'shortcut', 'text'])
      .executeTakeFirst();
    if (!removed) throw noSuchReply(companyId, replyId);
    return {
      action: 'cannedReply.delete',
      target: `canned reply ${replyId}`,
      before: removed,
      after: null,
      result: null,
    };
  });
}

const noSuchReply = (companyId: number, replyId: number) =>
  new NotFoundError(
    'canned_reply_not_found',
    `Company ${companyId} has no canned reply ${replyId}.`,
  );
