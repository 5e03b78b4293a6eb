import { sql, type Kysely, type Transaction } from 'kysely';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../src/db/schema.ts';

/** Row locks a test holds in a transaction of its own while the API works. */
export type HeldLock = {
  /** Resolves once another session waits for the held locks. */
  waitedOn: () => Promise<void>;
  /** Runs `last` in the holding transaction and commits it: the waiting session goes on after. */
  release: (last: (trx: Transaction<Database>) => Promise<unknown>) => Promise<void>;
};

/** Opens a transaction, takes the locks `lock` takes in it, and holds them until released. */
export async function holdRowLock(
  db: Kysely<Database>,
  lock: (trx: Transaction<Database>) => Promise<unknown>,
): Promise<HeldLock> {
  let holding!: (pid: number) => void;
  const held = new Promise<number>((resolve) => (holding = resolve));
  let releasing!: (last: (trx: Transaction<Database>) => Promise<unknown>) => void;
  const released = new Promise<(trx: Transaction<Database>) => Promise<unknown>>(
    (resolve) => (releasing = resolve),
  );
  const transaction = db.transaction().execute(async (trx) => {
    await lock(trx);
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
    holding(rows[0]?.pid ?? 0);
    await (
      await released
    )(trx);
  });
  // A failed lock rejects the transaction before the holder is known.
  const holder = await Promise.race([held, transaction.then(() => 0)]);
  return {
    waitedOn: async () => {
      for (;;) {
        const { rows } = await sql<{ waiting: number }>`
          select count(*)::int as waiting from pg_stat_activity
          where ${holder} = any(pg_blocking_pids(pid))`.execute(db);
        if ((rows[0]?.waiting ?? 0) > 0) return;
        await sleep(20);
      }
    },
    release: async (last) => {
      releasing(last);
      await transaction;
    },
  };
}
