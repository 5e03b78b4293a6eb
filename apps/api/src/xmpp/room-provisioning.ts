import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import {
  ensureRoom,
  RoomAdminError,
  type RoomAdmin,
  type RoomSettings,
} from '@frontdesk/chat/server';
import type { Database } from '../db/schema.ts';

/** Waits between passes over the rooms that failed: about 15 s in all, then it gives up. */
const RETRY_DELAYS_MS = [500, 1000, 2000, 4000, 8000];

/** Every company's room and its category rooms, all behind the company's password. */
async function companyRoomSettings(db: Kysely<Database>): Promise<RoomSettings[]> {
  const [companies, categories] = await Promise.all([
    db.selectFrom('companies').select(['id', 'name', 'conference_name', 'room_password']).execute(),
    db.selectFrom('categories').select(['company_id', 'name', 'room_name']).execute(),
  ]);
  return companies.flatMap((company) => [
    { name: company.conference_name, title: company.name, password: company.room_password },
    ...categories
      .filter((category) => category.company_id === company.id)
      .map((category) => ({
        name: category.room_name,
        title: `${company.name} · ${category.name}`,
        password: company.room_password,
      })),
  ]);
}

/**
 * Creates or brings in line every company's and category's chat room on ejabberd
 * (`ensureRoom` is idempotent). Rooms that fail are tried again after a short backoff, a few
 * times; what still fails is logged and left for the next start. Resolves whether all rooms
 * are in place. SECURITY: logs name rooms, never their passwords.
 */
export async function provisionChatRooms(
  db: Kysely<Database>,
  admin: RoomAdmin,
  log: FastifyBaseLogger,
  retryDelaysMs: readonly number[] = RETRY_DELAYS_MS,
): Promise<boolean> {
  const rooms = await companyRoomSettings(db);
  let pending = rooms;
  for (let attempt = 0; ; attempt += 1) {
    const failed: { room: RoomSettings; error: unknown }[] = [];
    for (const [index, room] of pending.entries()) {
      try {
        const outcome = await ensureRoom(admin, room);
        log.debug({ room: room.name, outcome }, 'chat room provisioned');
      } catch (error) {
        failed.push({ room, error });
        // Unreachable (status 0): the other rooms would each wait for their own timeout.
        if (error instanceof RoomAdminError && error.status === 0) {
          failed.push(...pending.slice(index + 1).map((rest) => ({ room: rest, error })));
          break;
        }
      }
    }
    if (failed.length === 0) {
      log.info({ rooms: rooms.length }, 'chat rooms provisioned');
      return true;
    }
    const delay = retryDelaysMs[attempt];
    const report = {
      rooms: failed.map((f) => f.room.name),
      err: failed[0]?.error,
      ...(delay === undefined ? {} : { retryInMs: delay }),
    };
    if (delay === undefined) {
      log.error(report, 'chat rooms could not be provisioned; chat in them fails until a restart');
      return false;
    }
    log.warn(report, 'chat rooms could not be provisioned yet');
    await sleep(delay);
    pending = failed.map((f) => f.room);
  }
}
