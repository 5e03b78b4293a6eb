import { Readable } from 'node:stream';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { REPORT_CSV_COLUMNS } from '@frontdesk/protocol';
import type { Database } from '../db/schema.ts';
import {
  batchEnd,
  factConditions,
  MEDIA_COLUMNS,
  ORIGIN_ROW,
  type CallFilters,
} from './call-list.ts';
import { conversationsWith, type ConversationKey } from './conversations.ts';
import type { ReportScope } from './report-range.ts';

/** Conversations a query writes out: some megabytes of text, a fraction of a second's work. */
const BATCH_CONVERSATIONS = 10_000;
/** The reply takes the text in pieces of about this many characters, each ending a line. */
const PIECE_LENGTH = 64 * 1024;

/** A text spreadsheets would run as a formula: = + - @, or a tab or carriage return before one. */
const FORMULA_START = '^[=+@\\t\\r-]';
const NEEDS_QUOTES = '[",\\r\\n]';

/**
 * One CSV text field (RFC 4180), worked out by PostgreSQL: quoted when it holds a comma, quote or
 * line break. A formula's text gets a leading apostrophe, so an agent's or category's name
 * cannot become one (OWASP "CSV injection").
 */
function csvText(text: RawBuilder<unknown>): RawBuilder<string> {
  const disarmed = sql`(case when ${text} ~ ${FORMULA_START} then '''' || ${text} else ${text} end)`;
  return sql`(case when ${disarmed} ~ ${NEEDS_QUOTES}
    then '"' || replace(${disarmed}, '"', '""') || '"' else ${disarmed} end)`;
}

/** A time as the list's JSON has it: ISO 8601 in UTC, to the millisecond. */
const isoTime = (time: RawBuilder<unknown>) =>
  sql<string>`to_char(${time} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A length of milliseconds in seconds, with no trailing zeros (20, 3.5). */
const seconds = (ms: RawBuilder<unknown>) => sql<string>`trim_scale(${ms} / 1000.0)::text`;

/** The fields of a conversation `c` (its first agent `s`, category `k`), by REPORT_CSV_COLUMNS. */
const CSV_FIELDS: Record<(typeof REPORT_CSV_COLUMNS)[number], RawBuilder<unknown>> = {
  call_id: csvText(sql`c.call_id`),
  started_at: isoTime(sql`c.started_at`),
  answered_at: isoTime(sql`c.answered_at`),
  ended_at: isoTime(sql`c.ended_at`),
  wait_seconds: seconds(sql`c.wait_ms`),
  handle_seconds: seconds(sql`c.handle_ms`),
  outcome: sql`c.outcome`,
  call_type: sql`c.call_type`,
  agent: csvText(sql`s.name`),
  category: csvText(sql`k.name`),
  rating: sql`c.rating::text`,
  holds: sql`c.holds::text`,
  transfers: sql`c.transfers::text`,
  recorded: sql`c.recorded::text`,
  relayed: sql`c.relayed::text`,
  setup_ms: sql`c.setup_ms::text`,
  // Rounded half up, as the list's JSON rounds it.
  round_trip_ms: sql`floor(c.round_trip_ms + 0.5)::int::text`,
  loss_ratio: sql`c.loss_ratio::text`,
  ...MEDIA_COLUMNS,
};

/** A conversation's line; a field with no value is empty. */
const csvLine = sql.join(
  REPORT_CSV_COLUMNS.map((column) => sql`coalesce(${CSV_FIELDS[column]}, '')`),
  sql` || ',' || `,
);

/** The lines of the conversations of one batch of origins that pass the filters, newest first. */
async function batchLines(
  db: Kysely<Database>,
  scope: ReportScope,
  filters: CallFilters,
  before: ConversationKey | undefined,
  through: ConversationKey | undefined,
): Promise<string> {
  const { rows } = await sql<{ lines: string | null }>`
  with ${conversationsWith({ scope, before, through }, filters.shortAbandonSeconds)}
  select string_agg(${csvLine} || e'\\r\\n', '' order by c.started_at desc, c.id desc) as lines
  from classified c
  ${ORIGIN_ROW}
  left join staff s on s.id = c.first_agent_id
  left join categories k on k.id = c.category_id
  where ${sql.join([sql`c.with_agent`, ...factConditions(filters)], sql` and `)}`.execute(db);
  return rows[0]?.lines ?? '';
}

/** A batch's text in pieces of whole lines, so the reply sends it as it goes. */
function* piecesOf(text: string): Generator<string> {
  for (let start = 0; start < text.length;) {
    const lineEnd = text.indexOf('\n', start + PIECE_LENGTH);
    const end = lineEnd === -1 ? text.length : lineEnd + 1;
    yield text.slice(start, end);
    start = end;
  }
}

/**
 * The CSV of every conversation that passes the filters, as a stream that reads the next batch
 * from the database only when the reply has taken the last (back-pressure), so a year of calls
 * never sits in memory. PostgreSQL writes the lines: formatting them is most of an export's work.
 */
export function callsCsv(db: Kysely<Database>, scope: ReportScope, filters: CallFilters): Readable {
  async function* lines(): AsyncGenerator<string> {
    yield `${REPORT_CSV_COLUMNS.join(',')}\r\n`;
    let before: ConversationKey | undefined;
    for (;;) {
      const through = await batchEnd(db, scope, before, BATCH_CONVERSATIONS);
      yield* piecesOf(await batchLines(db, scope, filters, before, through));
      if (!through) return;
      before = through;
    }
  }
  return Readable.from(lines(), { objectMode: false });
}

/** The file's name: the company's range, `calls-2026-11-01-to-2026-11-30.csv`. */
export function csvFileName(from: string, to: string): string {
  const part = (value: string) => value.replace(/[^0-9A-Za-z-]/g, '');
  return `calls-${part(from)}-to-${part(to)}.csv`;
}
