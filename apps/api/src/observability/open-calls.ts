import { sql, type Kysely } from 'kysely';
import { QUEUE_POLL_MS } from '@frontdesk/protocol';
import { SESSION_TTL_MS } from '../auth/sessions.ts';
import type { Database } from '../db/schema.ts';

export type OpenCalls = { live: number; waiting: number };

/**
 * The calls open now, across companies: answered ones (`live`) and guests still waiting. By the
 * same rules as the queue (calls/call-coordination.ts): a call older than a login cannot be live,
 * and a waiting guest that stopped asking for its place has closed its page.
 */
export async function countOpenCalls(db: Kysely<Database>, now = Date.now()): Promise<OpenCalls> {
  const stillAsking = new Date(now - 3 * QUEUE_POLL_MS);
  return db
    .selectFrom('call_reports')
    .select([
      sql<number>`count(*) filter (where agent_id is not null)`.as('live'),
      sql<number>`count(*) filter (where agent_id is null and coalesce(guest_seen_at, created_at) > ${stillAsking})`.as(
        'waiting',
      ),
    ])
    .where('status', '=', 'ok')
    .where('ended_at', 'is', null)
    .where('created_at', '>', new Date(now - SESSION_TTL_MS))
    .executeTakeFirstOrThrow();
}
