// The bare-PostgreSQL floor of the API's write routes: 50 concurrent workers inserting a row like
// call_reports' into a scratch table through a pg Pool as large as the API's, with nothing else
// around it. Run in a process of its own (like the API) so it shares no event loop with autocannon.
import pg from 'pg';
import { summarize } from '../stats.ts';

export type PgFloorRequest = { type: 'run'; seconds: number; workers: number };
export type PgFloorMessage =
  { type: 'ready' } | { type: 'result'; rps: number; p50: number; p99: number; errors: number };

const [databaseUrl, schema, poolSize] = process.argv.slice(2);
if (!databaseUrl || !schema || !poolSize) {
  throw new Error('usage: pg-floor.ts <database url> <schema> <pool size>');
}
const pool = new pg.Pool({
  connectionString: databaseUrl,
  max: Number(poolSize),
  options: `-c search_path=${schema}`,
});
// Its indexes and defaults as call_reports' (LIKE copies no foreign key: the floor checks none).
await pool.query('create table if not exists pg_floor_calls (like call_reports including all)');

let inserted = 0;
/** One insert of the columns `call-report/add` sets, with a fresh call id (its unique index). */
const insertOne = () =>
  pool.query(
    `insert into pg_floor_calls
       (company_id, guest_id, call_id, origin_call_id, source, status, webview, recording_declined)
     values (1, 1, $1, $1, 'widget', 'ok', false, false)`,
    [`pgfloor--${process.pid}-${(inserted += 1)}`],
  );

async function run({ seconds, workers }: PgFloorRequest): Promise<PgFloorMessage> {
  const endsAt = performance.now() + seconds * 1000;
  const latencies: number[] = [];
  let errors = 0;
  const worker = async () => {
    while (performance.now() < endsAt) {
      const startedAt = performance.now();
      try {
        await insertOne();
        latencies.push(performance.now() - startedAt);
      } catch {
        errors += 1;
      }
    }
  };
  const startedAt = performance.now();
  await Promise.all(Array.from({ length: workers }, worker));
  const { p50, p99 } = summarize(latencies);
  const elapsed = (performance.now() - startedAt) / 1000;
  return { type: 'result', rps: latencies.length / elapsed, p50, p99, errors };
}

process.on('message', (request: PgFloorRequest) => {
  void run(request).then((result) => process.send?.(result));
});
// The parent ends the run by disconnecting the IPC channel.
process.on('disconnect', () => void pool.end());
process.send?.({ type: 'ready' } satisfies PgFloorMessage);
