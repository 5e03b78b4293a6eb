import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { CallMethod, ReportCall, ReportCallsQuery } from '@frontdesk/protocol';
import type { Database } from '../db/schema.ts';
import { InvalidInputError } from '../domain-errors.ts';
import {
  conversationsWith,
  originConditions,
  type ConversationKey,
  type ConversationRow,
  type OriginSelection,
} from './conversations.ts';
import type { ReportScope } from './report-range.ts';

/** What the list keeps beyond the scope: the conversations' own facts. */
export type CallFilters = Pick<
  ReportCallsQuery,
  | 'outcome'
  | 'rating'
  | 'recorded'
  | 'relayed'
  | 'held'
  | 'transferred'
  | 'poorQuality'
  | 'rated'
  | 'weekday'
  | 'hour'
  | 'shortAbandonSeconds'
>;

type ListedRow = ConversationRow & {
  /** The origin's `created_at` with its microseconds: the keyset cursor's key. */
  key_at: string;
  agent_name: string | null;
  category_name: string | null;
  call_method: CallMethod;
};

/**
 * What a listed conversation `c` (its origin's row `r`, {@link ORIGIN_ROW}) tells beyond its
 * facts: its method (decision 0045), which its origin fixed when it was made and nothing changes
 * after, so the facts (migration 0020) need not keep it.
 */
export const MEDIA_COLUMNS = {
  call_method: sql<CallMethod>`r.call_method`,
};
/** The origin's row of a listed conversation `c`: one look-up by primary key each. */
export const ORIGIN_ROW = sql`join call_reports r on r.id = c.id`;

/** Origins read a batch: a page fills from few when nothing but the scope narrows it. */
const BATCH_ORIGINS = 1000;

/** The filters on what happened to a conversation, which only its facts can answer. */
export function factConditions(filters: CallFilters): RawBuilder<unknown>[] {
  const where: RawBuilder<unknown>[] = [];
  if (filters.outcome !== undefined) where.push(sql`c.outcome = ${filters.outcome}`);
  if (filters.rating !== undefined) where.push(sql`c.rating = ${filters.rating}`);
  if (filters.recorded !== undefined) where.push(sql`c.recorded = ${filters.recorded}`);
  if (filters.relayed !== undefined) where.push(sql`c.relayed = ${filters.relayed}`);
  if (filters.held !== undefined) where.push(sql`(c.holds > 0) = ${filters.held}`);
  if (filters.transferred !== undefined) {
    where.push(sql`(c.transfers > 0) = ${filters.transferred}`);
  }
  if (filters.poorQuality !== undefined) where.push(sql`c.poor_quality = ${filters.poorQuality}`);
  if (filters.rated !== undefined) where.push(sql`(c.rating is not null) = ${filters.rated}`);
  if (filters.weekday !== undefined) where.push(sql`c.weekday = ${filters.weekday}`);
  if (filters.hour !== undefined) where.push(sql`c.hour = ${filters.hour}`);
  return where;
}

/** The conversations of one batch of origins that pass the filters, newest first. */
export async function listedConversations(
  db: Kysely<Database>,
  selection: OriginSelection,
  filters: CallFilters,
): Promise<ListedRow[]> {
  const { rows } = await sql<ListedRow>`
  with ${conversationsWith(selection, filters.shortAbandonSeconds)}
  select c.*, s.name as agent_name, k.name as category_name,
    ${MEDIA_COLUMNS.call_method} as call_method,
    to_char(c.started_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as key_at
  from classified c
  ${ORIGIN_ROW}
  left join staff s on s.id = c.first_agent_id
  left join categories k on k.id = c.category_id
  where ${sql.join([sql`c.with_agent`, ...factConditions(filters)], sql` and `)}
  order by c.started_at desc, c.id desc`.execute(db);
  return rows;
}

/**
 * The key of the `count`th origin of the scope older than `before` (newest first): where a
 * batch of that many ends; `undefined` when fewer are left.
 */
export async function batchEnd(
  db: Kysely<Database>,
  scope: ReportScope,
  before: ConversationKey | undefined,
  count: number,
): Promise<ConversationKey | undefined> {
  const { rows } = await sql<{ key_at: string; id: number }>`
    select to_char(o.started_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as key_at,
      o.origin_id as id
    from report_conversations o
    where ${originConditions(scope, before)}
    order by o.started_at desc, o.origin_id desc
    offset ${count - 1} limit 1`.execute(db);
  const row = rows[0];
  return row && { startedAt: row.key_at, id: row.id };
}

/**
 * Every conversation of the scope that passes the filters, newest first, read in batches of
 * origins so that no more than one batch is held at a time: a year's export streams in
 * constant memory, and a page of a selective filter reads only as far as it must.
 */
export async function* conversationsOf(
  db: Kysely<Database>,
  scope: ReportScope,
  filters: CallFilters,
  after: ConversationKey | undefined,
  batchOrigins = BATCH_ORIGINS,
): AsyncGenerator<ListedRow> {
  let before = after;
  for (;;) {
    const through = await batchEnd(db, scope, before, batchOrigins);
    yield* await listedConversations(db, { scope, before, through }, filters);
    if (!through) return;
    before = through;
  }
}

/** A cursor names the last conversation of a page; it says nothing a caller could misuse. */
export function encodeCursor(key: ConversationKey): string {
  return Buffer.from(`${key.startedAt}|${key.id}`).toString('base64url');
}

export function decodeCursor(cursor: string): ConversationKey {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)\|(\d{1,10})$/.exec(
    Buffer.from(cursor, 'base64url').toString(),
  );
  if (!match?.[1] || !match[2]) {
    throw new InvalidInputError('invalid_cursor', 'The cursor is not one this list gave.', {
      cursor: "must be a previous page's nextCursor",
    });
  }
  return { startedAt: match[1], id: Number(match[2]) };
}

const person = (id: number | null, name: string | null) =>
  id === null || name === null ? null : { id, name };

/** A listed conversation as the list and the CSV show it. */
export function toReportCall(row: ListedRow): ReportCall {
  return {
    callId: row.call_id,
    startedAt: row.started_at.toISOString(),
    answeredAt: row.answered_at?.toISOString() ?? null,
    endedAt: row.ended_at?.toISOString() ?? null,
    waitMs: row.wait_ms,
    handleMs: row.handle_ms,
    outcome: row.outcome,
    callType: row.call_type,
    agent: person(row.first_agent_id, row.agent_name),
    category: person(row.category_id, row.category_name),
    rating: row.rating,
    holds: row.holds,
    transfers: row.transfers,
    recorded: row.recorded,
    relayed: row.relayed,
    callMethod: row.call_method,
    setupMs: row.setup_ms,
    roundTripMs: row.round_trip_ms === null ? null : Math.round(row.round_trip_ms),
    lossRatio: row.loss_ratio,
    poorQuality: row.poor_quality,
  };
}

/** `GET /api/reports/calls`: one page, newest first, and the cursor of the next. */
export async function reportCallPage(
  db: Kysely<Database>,
  scope: ReportScope,
  query: CallFilters & { cursor?: string | undefined; limit: number },
): Promise<{ calls: ReportCall[]; nextCursor: string | null }> {
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const page: ListedRow[] = [];
  // Without a filter on the conversations' facts, every origin read is a row of the page; with
  // one, a page may need many, read a full batch at a time.
  const narrowed = scope.agentId !== undefined || factConditions(query).length > 0;
  const batch = narrowed ? BATCH_ORIGINS : query.limit + 1;
  // One more than the page tells whether another page follows.
  for await (const row of conversationsOf(db, scope, query, after, batch)) {
    page.push(row);
    if (page.length > query.limit) break;
  }
  const more = page.length > query.limit;
  const calls = page.slice(0, query.limit);
  const last = calls.at(-1);
  return {
    calls: calls.map(toReportCall),
    nextCursor: more && last ? encodeCursor({ startedAt: last.key_at, id: last.id }) : null,
  };
}
