import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { companyDetailsSchema, envelope, type CompanyDetails } from '@frontdesk/protocol';
import { findDemoLogin, SEEDED_COMPANY } from '../src/db/seed.ts';
import { ACCOUNT_LIMITS, FAILED_SIGN_IN_LIMITS, RATE_LIMITS } from '../src/plugins/rate-limits.ts';
import {
  bearer,
  buildReplica,
  buildTestApp,
  loginGuest,
  loginStaff,
  newCallId,
  testDatabaseUrl,
  type TestApp,
} from './helper.ts';

const COMPANY = SEEDED_COMPANY.demo;

/**
 * Issue 21, decision 0038: any number of API processes on one database behave as one. Two
 * processes on one schema, as two replicas behind the load balancer run.
 */
describe('two API replicas on one database', () => {
  let t: TestApp;
  let replica: Awaited<ReturnType<typeof buildReplica>>;
  let admin: string;

  beforeAll(async () => {
    // The replica keeps company details for an hour unless told otherwise.
    t = await buildTestApp({ COMPANY_DETAILS_CACHE_MS: '3600000' });
    replica = await buildReplica(t);
    admin = await loginStaff(t.app, 'admin@frontdesk.demo');
  });
  afterAll(async () => {
    await replica?.close();
    await t?.close();
  });

  const both = () => [t.app, replica.app];

  it('meets a per-address limit at the same count with the requests alternated', async () => {
    const remoteAddress = '198.51.100.7';
    const statuses: number[] = [];
    for (let i = 0; i <= RATE_LIMITS.guestAuth.max; i += 1) {
      const app = both()[i % 2] as FastifyInstance;
      const response = await app.inject({
        method: 'POST',
        url: '/api/guest-auth/login',
        body: { credential: 'x'.repeat(43), companyId: COMPANY },
        remoteAddress,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, -1)).not.toContain(429);
    expect(statuses.at(-1)).toBe(429);
    // Another address is not held back by it, on either replica.
    for (const app of both()) {
      const other = await app.inject({
        method: 'POST',
        url: '/api/guest-auth/login',
        body: { credential: 'x'.repeat(43), companyId: COMPANY },
        remoteAddress: '198.51.100.8',
      });
      expect(other.statusCode).not.toBe(429);
    }
  });

  it('meets a per-account limit at the same count, whatever address each request came from', async () => {
    const guest = await loginGuest(t.app, COMPANY);
    const statuses: number[] = [];
    for (let i = 0; i <= ACCOUNT_LIMITS.bugsPerGuest.max; i += 1) {
      const response = await (both()[i % 2] as FastifyInstance).inject({
        method: 'POST',
        url: '/api/call-bug/by-guest',
        body: { guest_log: [], guest_state: {}, guest_client_info: {}, call_id: newCallId(guest) },
        headers: bearer(guest.token),
        remoteAddress: `198.51.100.${100 + i}`,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, -1)).toEqual(Array(ACCOUNT_LIMITS.bugsPerGuest.max).fill(201));
    expect(statuses.at(-1)).toBe(429);
  });

  it('counts failed sign-ins of one address across both, and a right password is not one', async () => {
    const remoteAddress = '198.51.100.9';
    const signIn = (app: FastifyInstance, password: string) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/login',
        body: { email: 'ada@frontdesk.demo', password },
        remoteAddress,
      });
    const { max } = FAILED_SIGN_IN_LIMITS.perAddress;
    expect(
      (await signIn(replica.app, findDemoLogin('ada@frontdesk.demo').password)).statusCode,
    ).toBe(200);
    for (let i = 0; i < max; i += 1) {
      expect((await signIn(both()[i % 2] as FastifyInstance, 'wrong password')).statusCode).toBe(
        401,
      );
    }
    for (const app of both()) {
      const refused = await signIn(app, 'wrong password');
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('keeps no row for a refused sign-in, and stops an address’s sign-ins at the route’s limit', async () => {
    const remoteAddress = '203.0.113.61';
    const signIn = (i: number) =>
      (both()[i % 2] as FastifyInstance).inject({
        method: 'POST',
        url: '/api/auth/login',
        body: { email: `nobody-${i}@flood.example`, password: 'wrong password' },
        remoteAddress,
      });
    // Each row of this address, and the version of it PostgreSQL last wrote.
    const rows = async () =>
      (
        await sql<{ key: string; version: string }>`
          select key, xmin::text as version from rate_limit_counters
          where key like ${`%:${remoteAddress}`} or key like ${`% ${remoteAddress}`} or key like '%@flood.example' order by key
        `.execute(t.app.db)
      ).rows;
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMITS.signIn.max; i += 1) statuses.push((await signIn(i)).statusCode);
    const failures = FAILED_SIGN_IN_LIMITS.perAddress.max;
    expect(statuses).toEqual([
      ...Array<number>(failures).fill(401),
      ...Array<number>(RATE_LIMITS.signIn.max - failures).fill(429),
    ]);
    const before = await rows();
    // The failures' e-mails, the address's failures and its route counter: no refused e-mail.
    expect(before.filter((row) => row.key.endsWith('@flood.example'))).toHaveLength(failures);
    expect(before).toHaveLength(failures + 2);
    for (let i = RATE_LIMITS.signIn.max; i < RATE_LIMITS.signIn.max + 4; i += 1) {
      expect((await signIn(i)).statusCode).toBe(429);
    }
    // Past the route's limit nothing but its own counter is written: the guard never ran.
    const route = (row: { key: string }) => row.key.startsWith('POST /api/auth/login ');
    expect((await rows()).filter((row) => !route(row))).toEqual(
      before.filter((row) => !route(row)),
    );
  });

  const publicDetails = async (app: FastifyInstance): Promise<CompanyDetails> => {
    const response = await app.inject({ method: 'GET', url: `/api/company/${COMPANY}` });
    return envelope(companyDetailsSchema).parse(response.json()).data;
  };
  const adminSend = (method: 'PUT' | 'POST', path: string, body: object) =>
    t.app.inject({
      method,
      url: `/api/company/${COMPANY}${path}`,
      body,
      headers: bearer(admin),
    });

  it('shows a timetable, form or category changed through one replica on the other’s next read', async () => {
    await publicDetails(replica.app);
    const timetable = await adminSend('PUT', '/schedule', {
      timeZone: 'Asia/Tokyo',
      hours: [{ weekday: 2, opens: '09:00', closes: '17:00' }],
      exceptions: [],
    });
    expect(timetable.statusCode, timetable.body).toBe(200);
    await vi.waitFor(async () => {
      expect((await publicDetails(replica.app)).schedule?.timeZone).toBe('Asia/Tokyo');
    });

    const form = await adminSend('PUT', '/forms/welcome', {
      title: 'Asked by the other replica',
      fields: [{ name: 'order', label: 'Order', required: false, type: 'text', maxLength: 100 }],
    });
    expect(form.statusCode, form.body).toBe(200);
    await vi.waitFor(async () => {
      expect((await publicDetails(replica.app)).welcomeFormTitle).toBe(
        'Asked by the other replica',
      );
    });

    const category = await adminSend('POST', '/categories', {
      name: 'Replicated',
      textColor: '#111111',
      backgroundColor: '#eeeeee',
      agentIds: [],
    });
    expect(category.statusCode, category.body).toBe(201);
    await vi.waitFor(async () => {
      expect((await publicDetails(replica.app)).categories.map((c) => c.name)).toContain(
        'Replicated',
      );
    });
  });

  it('forgets every company when its change feed reconnects: what was missed meanwhile is not served', async () => {
    await publicDetails(replica.app);
    // A change no feed hears of (made behind the API's back), standing for one made while the
    // replica's feed was down.
    await t.app.db
      .updateTable('companies')
      .set({ name: 'Renamed while unheard' })
      .where('id', '=', COMPANY)
      .execute();
    expect((await publicDetails(replica.app)).name).not.toBe('Renamed while unheard');
    const server = new pg.Client({ connectionString: testDatabaseUrl });
    await server.connect();
    try {
      const { rowCount } = await server.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
        [`frontdesk-api-company-changes-${t.config.databaseSchema ?? 'public'}`],
      );
      expect(rowCount).toBe(2);
    } finally {
      await server.end();
    }
    await vi.waitFor(
      async () => expect((await publicDetails(replica.app)).name).toBe('Renamed while unheard'),
      { timeout: 5000 },
    );
  });
});

describe('work one replica does for all', () => {
  let t: TestApp;
  const replicas: Awaited<ReturnType<typeof buildReplica>>[] = [];

  beforeAll(async () => {
    t = await buildTestApp();
    // Two replicas whose tasks tick; `t`'s never do.
    replicas.push(await buildReplica(t), await buildReplica(t));
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.close();
    await t?.close();
  });

  it('runs each sweep once a period, and on the other replica once its holder stops', async () => {
    const [first, second] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
    const tasks = ['call-presence', 'staff-chat-sessions', 'rate-limit-cleanup'];
    for (const name of tasks) {
      // The first to tick takes the task; in every period after, it alone runs it.
      expect(await first.app.clusterTasks.task(name).tick()).toBe(true);
      for (let period = 0; period < 3; period += 1) {
        const ran = await Promise.all(
          [first, second].map((replica) => replica.app.clusterTasks.task(name).tick()),
        );
        expect(ran).toEqual([true, false]);
      }
    }
    await first.close();
    replicas.shift();
    for (const name of tasks) {
      expect(await second.app.clusterTasks.task(name).tick()).toBe(true);
    }
  });

  it('hands a task over when its holder’s session is lost, as when its machine is cut off', async () => {
    replicas.push(await buildReplica(t));
    const [holder, other] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
    const task = (replica: typeof holder) => replica.app.clusterTasks.task('call-presence');
    expect(await task(holder).tick()).toBe(true);
    expect(await task(other).tick()).toBe(false);
    // What PostgreSQL does to the session of a process it lost: the holder's locks go with it.
    const { rows } = await sql<{ pid: number }>`
      select distinct pid from pg_locks join pg_stat_activity using (pid)
      where locktype = 'advisory'
        and application_name = ${`frontdesk-api-cluster-locks-${t.config.databaseSchema ?? 'public'}`}
    `.execute(t.app.db);
    expect(rows).toHaveLength(1);
    await sql`select pg_terminate_backend(${rows[0]?.pid})`.execute(t.app.db);
    await vi.waitFor(async () => expect(await task(other).tick()).toBe(true));
    expect(await task(holder).tick()).toBe(false);
  });

  it('deletes the ended windows of the shared counters, and keeps the ones under way', async () => {
    await sql`insert into rate_limit_counters (key, hits, resets_at) values
      ('ended', 3, now() - interval '1 second'), ('under way', 3, now() + interval '1 minute')`.execute(
      t.app.db,
    );
    const [replica] = replicas;
    expect(await replica?.app.clusterTasks.task('rate-limit-cleanup').tick()).toBe(true);
    const { rows } = await sql<{ key: string }>`select key from rate_limit_counters`.execute(
      t.app.db,
    );
    expect(rows.map((row) => row.key)).toEqual(['under way']);
  });
});
