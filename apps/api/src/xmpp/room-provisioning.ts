import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import {
  ensureRoom,
  reserveNick,
  RoomAdminError,
  type RoomAdmin,
  type RoomSettings,
} from '@frontdesk/chat/server';
import type { Database } from '../db/schema.ts';
import { staffJabberUsername, userJid } from './addresses.ts';

/** Waits between passes over the rooms that failed: about 15 s in all, then it gives up. */
const RETRY_DELAYS_MS = [500, 1000, 2000, 4000, 8000];

type Provision = { name: string; run: () => Promise<unknown> };

/** What provisioning logs with: the API's logger, or an operator command's (create-company). */
export type ProvisionLog = Pick<FastifyBaseLogger, 'debug' | 'info' | 'warn' | 'error'>;

/**
 * Every company's room, for its staff only and behind the company's password, and each staff
 * member's nick reserved to it, so no guest can pass for an agent in a call's room (decision 0010).
 */
async function provisions(
  db: Kysely<Database>,
  admin: RoomAdmin,
  companyId: number | undefined,
): Promise<Provision[]> {
  const [companies, staff] = await Promise.all([
    db
      .selectFrom('companies')
      .select(['id', 'name', 'conference_name', 'room_password'])
      .$if(companyId !== undefined, (q) => q.where('id', '=', companyId ?? 0))
      .execute(),
    db
      .selectFrom('staff')
      .select(['id', 'company_id'])
      .where('active', '=', true)
      .$if(companyId !== undefined, (q) => q.where('company_id', '=', companyId ?? 0))
      .execute(),
  ]);
  const jidOf = (id: number) => userJid(staffJabberUsername(id), admin.domain);
  const rooms = companies.map((company): RoomSettings => ({
    name: company.conference_name,
    title: company.name,
    password: company.room_password,
    members: staff.filter((s) => s.company_id === company.id).map((s) => jidOf(s.id)),
  }));
  return [
    ...rooms.map((room) => ({ name: room.name, run: () => ensureRoom(admin, room) })),
    ...staff.map(({ id }) => ({
      name: `nick ${staffJabberUsername(id)}`,
      run: () => reserveNick(admin, staffJabberUsername(id), jidOf(id)),
    })),
  ];
}

/**
 * Creates or brings in line every company's chat room on ejabberd and reserves the staff's nicks
 * (both idempotent); with `companyId`, only that company's (a company or member just created or
 * reactivated by an admin or the platform operator). What fails is tried again after a short backoff, a few times; what still
 * fails is logged and left for the next start. Resolves whether all is in place. SECURITY: logs
 * name rooms, never their passwords.
 */
export async function provisionChatRooms(
  db: Kysely<Database>,
  admin: RoomAdmin,
  log: ProvisionLog,
  retryDelaysMs: readonly number[] = RETRY_DELAYS_MS,
  companyId?: number,
): Promise<boolean> {
  const all = await provisions(db, admin, companyId);
  let pending = all;
  for (let attempt = 0; ; attempt += 1) {
    const failed: { item: Provision; error: unknown }[] = [];
    for (const [index, item] of pending.entries()) {
      try {
        const outcome = await item.run();
        log.debug({ item: item.name, outcome }, 'chat provisioned');
      } catch (error) {
        failed.push({ item, error });
        // Unreachable (status 0): the others would each wait for their own timeout.
        if (error instanceof RoomAdminError && error.status === 0) {
          failed.push(...pending.slice(index + 1).map((rest) => ({ item: rest, error })));
          break;
        }
      }
    }
    if (failed.length === 0) {
      log.info({ items: all.length }, 'chat rooms and nicks provisioned');
      return true;
    }
    const delay = retryDelaysMs[attempt];
    const report = {
      items: failed.map((f) => f.item.name),
      err: failed[0]?.error,
      ...(delay === undefined ? {} : { retryInMs: delay }),
    };
    if (delay === undefined) {
      log.error(report, 'chat rooms could not be provisioned; chat in them fails until a restart');
      return false;
    }
    log.warn(report, 'chat rooms could not be provisioned yet');
    await sleep(delay);
    pending = failed.map((f) => f.item);
  }
}
