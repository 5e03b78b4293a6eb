import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { REPORT_CSV_COLUMNS, type ReportCall } from '@frontdesk/protocol';
import type { Database } from '../db/schema.ts';
import { conversationsOf, toReportCall, type CallFilters } from './call-list.ts';
import type { ReportScope } from './report-range.ts';

type CsvValue = string | number | boolean | null;

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break. A text that a
 * spreadsheet would run as a formula (= + - @, or a tab or carriage return before one) gets a
 * leading apostrophe, so an agent's or category's name cannot become one (OWASP "CSV injection").
 */
export function csvField(value: CsvValue): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const seconds = (ms: number | null) => (ms === null ? null : ms / 1000);

/** The row of a conversation, in the order of REPORT_CSV_COLUMNS. */
function csvRow(call: ReportCall): string {
  const values: Record<(typeof REPORT_CSV_COLUMNS)[number], CsvValue> = {
    call_id: call.callId,
    started_at: call.startedAt,
    answered_at: call.answeredAt,
    ended_at: call.endedAt,
    wait_seconds: seconds(call.waitMs),
    handle_seconds: seconds(call.handleMs),
    outcome: call.outcome,
    call_type: call.callType,
    agent: call.agent?.name ?? null,
    category: call.category?.name ?? null,
    rating: call.rating,
    holds: call.holds,
    transfers: call.transfers,
    recorded: call.recorded,
    relayed: call.relayed,
    setup_ms: call.setupMs,
    round_trip_ms: call.roundTripMs,
    loss_ratio: call.lossRatio,
  };
  return `${REPORT_CSV_COLUMNS.map((column) => csvField(values[column])).join(',')}\r\n`;
}

/**
 * The CSV of every conversation that passes the filters, as a stream that reads the next batch
 * from the database only when the reply has taken the last (back-pressure), so a year of calls
 * never sits in memory.
 */
export function callsCsv(db: Kysely<Database>, scope: ReportScope, filters: CallFilters): Readable {
  async function* lines(): AsyncGenerator<string> {
    yield `${REPORT_CSV_COLUMNS.join(',')}\r\n`;
    let chunk = '';
    for await (const row of conversationsOf(db, scope, filters, undefined)) {
      chunk += csvRow(toReportCall(row));
      // Lines go out in chunks of some kilobytes: one write a line would cost more than the row.
      if (chunk.length >= 64 * 1024) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
  }
  return Readable.from(lines(), { objectMode: false });
}

/** The file's name: the company's range, `calls-2026-11-01-to-2026-11-30.csv`. */
export function csvFileName(from: string, to: string): string {
  const part = (value: string) => value.replace(/[^0-9A-Za-z-]/g, '');
  return `calls-${part(from)}-to-${part(to)}.csv`;
}
