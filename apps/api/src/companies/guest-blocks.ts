import { sql, type Kysely } from 'kysely';
import type { BlockBody, GuestBlock } from '@frontdesk/protocol';
import { changeCompany, type CompanyChangeOptions } from '../audit/company-changes.ts';
import type { Database } from '../db/schema.ts';
import { NotFoundError } from '../domain-errors.ts';
import { keyedFingerprint } from '../guests/guest-identity.ts';

type BlockRow = {
  id: number;
  fingerprint: string;
  reason: string | null;
  call_id: string | null;
  created_at: Date;
};

const toBlock = (row: BlockRow): GuestBlock => ({
  id: row.id,
  fingerprint: row.fingerprint,
  reason: row.reason,
  callId: row.call_id,
  createdAt: row.created_at.toISOString(),
});

/** The company's block list (spec §6), newest first. */
export async function listBlocks(db: Kysely<Database>, companyId: number): Promise<GuestBlock[]> {
  const rows = await db
    .selectFrom('guest_blocks')
    .select(['id', 'fingerprint', 'reason', 'call_id', 'created_at'])
    .where('company_id', '=', companyId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toBlock);
}

/**
 * SECURITY: the (keyed) fingerprint behind one of the company's own calls, looked up here: the
 * admin's browser names the call, never the fingerprint, and another company's call is not found.
 */
async function fingerprintOfCall(
  db: Kysely<Database>,
  companyId: number,
  callId: string,
): Promise<string> {
  const row = await db
    .selectFrom('call_reports as r')
    .innerJoin('guests as g', 'g.id', 'r.guest_id')
    .select('g.fingerprint')
    .where('r.call_id', '=', callId)
    .where('r.company_id', '=', companyId)
    .executeTakeFirst();
  if (!row) {
    throw new NotFoundError('call_not_found', `Company ${companyId} has no call ${callId}.`, {
      callId: 'is not a call of the company',
    });
  }
  return row.fingerprint;
}

/**
 * `POST /company/:id/blocks`: the guest's browser may start no more calls with the company (its
 * next `call-report/add` is recorded as `blocked`; spec §6). Blocking a fingerprint already on
 * the list updates its reason; `created` says which happened. A fingerprint the admin types is
 * kept, as the guests' are, as its HMAC under `fingerprintKey` (decision 0033).
 */
export async function blockGuest(
  db: Kysely<Database>,
  options: CompanyChangeOptions,
  body: BlockBody,
  fingerprintKey: string,
): Promise<{ result: { block: GuestBlock; created: boolean }; version: number }> {
  const { companyId } = options;
  return changeCompany(db, options, async (trx) => {
    const fingerprint =
      body.callId === undefined
        ? keyedFingerprint(fingerprintKey, body.fingerprint ?? '')
        : await fingerprintOfCall(trx, companyId, body.callId);
    const previous = await trx
      .selectFrom('guest_blocks')
      .select(['reason', 'call_id'])
      .where('company_id', '=', companyId)
      .where('fingerprint', '=', fingerprint)
      .executeTakeFirst();
    const row = await trx
      .insertInto('guest_blocks')
      .values({
        company_id: companyId,
        fingerprint,
        reason: body.reason ?? null,
        call_id: body.callId ?? null,
      })
      .onConflict((oc) =>
        oc.columns(['company_id', 'fingerprint']).doUpdateSet({
          reason: (eb) => eb.ref('excluded.reason'),
          call_id: sql<string | null>`coalesce(excluded.call_id, guest_blocks.call_id)`,
        }),
      )
      .returning(['id', 'fingerprint', 'reason', 'call_id', 'created_at'])
      .executeTakeFirstOrThrow();
    const block = toBlock(row);
    return {
      action: previous ? 'block.update' : 'block.create',
      target: `block ${block.id}`,
      before: previous ? { reason: previous.reason, callId: previous.call_id } : null,
      after: { fingerprint, reason: block.reason, callId: block.callId },
      result: { block, created: previous === undefined },
    };
  });
}

/** `DELETE /company/:id/blocks/:blockId`: the browser may call again (404 for no such entry). */
export async function unblockGuest(
  db: Kysely<Database>,
  options: CompanyChangeOptions,
  blockId: number,
): Promise<{ version: number }> {
  const { companyId } = options;
  return changeCompany(db, options, async (trx) => {
    const removed = await trx
      .deleteFrom('guest_blocks')
      .where('company_id', '=', companyId)
      .where('id', '=', blockId)
      .returning(['fingerprint', 'reason', 'call_id'])
      .executeTakeFirst();
    if (!removed) {
      throw new NotFoundError('block_not_found', `Company ${companyId} has no block ${blockId}.`);
    }
    return {
      action: 'block.delete',
      target: `block ${blockId}`,
      before: { fingerprint: removed.fingerprint, reason: removed.reason, callId: removed.call_id },
      after: null,
      result: null,
    };
  });
}
