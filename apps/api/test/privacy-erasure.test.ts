import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
// The test reads the chat server's state as any XMPP client would (the guest's own PEP nodes),
// which the chat adapter rightly does not offer.
// eslint-disable-next-line no-restricted-imports
import { createClient } from 'stanza';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatSession } from '@frontdesk/chat';
import { envelope, guestErasureSchema, guestFoundSchema } from '@frontdesk/protocol';
import { mintXmppToken } from '../src/auth/service-tokens.ts';
import { guestHoldings } from '../src/privacy/guest-data.ts';
import { buildTestAppWithChat, type TestAppWithChat } from './chat-server.ts';
import { COMPANY, seedGuestEverywhere, unzip, type SeededGuest } from './guest-data-fixture.ts';
import { bearer, loginStaff } from './helper.ts';

/**
 * Every table of the schema, and what it holds of a guest (decision 0032). A table added later
 * fails "every table is classified" until its author adds it here — and, if it holds a guest's
 * data, to the erasure.
 */
/**
 * `limit window`: a rate limit's counter, keyed by the visitor's address or the guest's id for
 * the limit's window (a minute; failed sign-ins fifteen), deleted within a minute after it ends
 * (decision 0038). It may still count the guest's last requests when the erasure runs, so the
 * row scan below leaves it out; docs/privacy.md says so.
 */
const TABLES: Record<string, 'erased' | 'anonymised' | 'no guest data' | 'limit window'> = {
  guests: 'erased',
  form_submissions: 'erased',
  rating_submissions: 'erased',
  uploads: 'erased',
  call_bugs: 'erased',
  guest_blocks: 'erased',
  call_reports: 'anonymised',
  report_conversations: 'anonymised',
  call_recordings: 'anonymised',
  call_events: 'anonymised',
  call_quality: 'anonymised',
  audit_entries: 'anonymised',
  call_outcome_codes: 'no guest data',
  canned_replies: 'no guest data',
  categories: 'no guest data',
  companies: 'no guest data',
  company_retention: 'no guest data',
  forms: 'no guest data',
  geofence_zones: 'no guest data',
  operator_sessions: 'no guest data',
  operators: 'no guest data',
  retention_runs: 'no guest data',
  schedule_exception_hours: 'no guest data',
  schedule_exceptions: 'no guest data',
  schedule_hours: 'no guest data',
  schedules: 'no guest data',
  sessions: 'no guest data',
  staff: 'no guest data',
  staff_assignment_groups: 'no guest data',
  staff_categories: 'no guest data',
  media_servers: 'no guest data',
  rate_limit_counters: 'limit window',
  kysely_migration: 'no guest data',
  kysely_migration_lock: 'no guest data',
};

/** Every file under `root`, with its path. */
async function filesUnder(root: string): Promise<string[]> {
  if (!existsSync(root)) return [];
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe('a guest’s rights: export and complete erasure (decision 0032)', () => {
  let t: TestAppWithChat;
  let admin: string;
  let erased: SeededGuest;
  let kept: SeededGuest;
  const MARKER = 'annerasedguest';
  const KEPT_MARKER = 'bobkeptguest';

  /** What a fresh XMPP login as the guest finds on its own JID: its PEP nodes. */
  async function pepNodesOf(jid: string): Promise<string[]> {
    const client = createClient({
      jid,
      password: await mintXmppToken(t.config.secrets.xmppJwt, jid, new Date(Date.now() + 60_000)),
      transports: { websocket: t.xmpp.wsUrl, bosh: false },
    });
    client.sasl.disable('X-OAUTH2');
    const started = new Promise<void>((resolve) => client.once('session:started', () => resolve()));
    client.connect();
    await started;
    try {
      const items = await client.getDiscoItems(jid);
      return items.items.map((item) => item.node ?? '').filter((node) => node !== '');
    } finally {
      client.disconnect();
    }
  }

  beforeAll(async () => {
    t = await buildTestAppWithChat('privacy-erasure');
    admin = await loginStaff(t.app, 'admin@frontdesk.demo');
    erased = await seedGuestEverywhere(t, admin, MARKER, '203.0.113.7');
    kept = await seedGuestEverywhere(t, admin, KEPT_MARKER, '198.51.100.9');
    // The guest's chat, as its page connects it: its presence state nodes are made.
    const chat = new ChatSession({
      url: t.xmpp.wsUrl,
      jid: erased.call.services.xmpp.jid,
      token: erased.call.services.xmpp.password,
      sender: 'GUEST',
      log: () => undefined,
    });
    await chat.connect();
    chat.close();
  }, 60_000);
  afterAll(() => t.close());

  it('finds the guest by call id, by date and by a welcome answer', async () => {
    const find = async (query: string) => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/company/${COMPANY}/guests?${query}`,
        headers: bearer(admin),
      });
      expect(response.statusCode).toBe(200);
      return envelope(guestFoundSchema.array())
        .parse(response.json())
        .data.map((g) => g.id);
    };
    expect(await find(`callId=${erased.call.callId}`)).toEqual([erased.guest.id]);
    expect(await find(`answer=${MARKER.toUpperCase()}%40example`)).toEqual([erased.guest.id]);
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date(Date.now() + 3_600_000).toISOString();
    const byDate = await find(`from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
    expect(byDate).toEqual(expect.arrayContaining([erased.guest.id, kept.guest.id]));
    const bad = await t.app.inject({
      method: 'GET',
      url: `/api/company/${COMPANY}/guests?answer=ab`,
      headers: bearer(admin),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toHaveProperty('answer');
  });

  it('exports every item held about the guest in one archive, and logs it', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/company/${COMPANY}/guests/${erased.guest.id}/export`,
      headers: bearer(admin),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    const entries = await unzip(response.rawPayload);
    const data = JSON.parse(entries.get('data.json')?.toString() ?? '{}') as Record<
      string,
      { id?: number | string; call_report_id?: number; fingerprint?: string }[]
    >;
    const ids = (table: string) => (data[table] ?? []).map((row) => row.id);
    expect(ids('guests')).toEqual([erased.guest.id]);
    expect(data.guests?.[0]).not.toHaveProperty('credential_hash');
    expect(ids('call_reports')).toEqual(erased.callReportIds);
    expect(data.call_events).toHaveLength(1);
    expect(data.call_quality).toHaveLength(1);
    expect(data.call_recordings?.map((r) => r.call_report_id)).toEqual([erased.callReportIds[0]]);
    // The welcome form the guest page sent, and the one seeded with the e-mail.
    expect(ids('form_submissions')).toHaveLength(2);
    expect(ids('form_submissions')).toContain(erased.welcomeId);
    expect(ids('rating_submissions')).toEqual([erased.ratingId]);
    // Its own file, and the one its agent sent in its call.
    expect(ids('uploads')).toEqual([erased.uploadId, erased.agentUploadId]);
    expect(ids('call_bugs')).toEqual([erased.bugId]);
    expect(data.guest_blocks?.map((b) => b.fingerprint)).toEqual([erased.guest.fingerprint]);
    expect(entries.get(`files/${erased.uploadId}-${MARKER}.pdf`)).toEqual(
      Buffer.from(erased.document),
    );
    expect(entries.get(`files/${erased.agentUploadId}-price list for ${MARKER}.pdf`)).toEqual(
      Buffer.from(erased.agentDocument),
    );
    expect(entries.get(`recordings/${erased.film}`)?.toString()).toBe(`film of ${MARKER}`);
    expect(data.missingFiles).toEqual([]);
    // Nothing of the other guest.
    expect(entries.get('data.json')?.toString()).not.toContain(KEPT_MARKER);
    const logged = await t.app.db
      .selectFrom('audit_entries')
      .selectAll()
      .where('action', '=', 'guest.export')
      .executeTakeFirstOrThrow();
    expect(logged).toMatchObject({
      target: `guest ${erased.guest.id}`,
      after: { calls: 2, answers: 3, files: 2, recordings: 1 },
    });
  });

  it('erases everything of the guest, table by table and folder by folder; the reports still count its call', async () => {
    const { db } = t.app;
    const guestJid = erased.call.services.xmpp.jid;
    expect(await pepNodesOf(guestJid)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^urn:frontdesk:presence:/)]),
    );
    const keptBefore = await guestHoldings(db, COMPANY, kept.guest.id);
    const reportBefore = await db
      .selectFrom('report_conversations')
      .selectAll()
      .where('origin_id', '=', erased.callReportIds[0] ?? 0)
      .executeTakeFirstOrThrow();

    const response = await t.app.inject({
      method: 'DELETE',
      url: `/api/company/${COMPANY}/guests/${erased.guest.id}`,
      headers: bearer(admin),
    });
    expect(response.statusCode).toBe(200);
    expect(envelope(guestErasureSchema).parse(response.json()).data).toEqual({
      calls: 2,
      answers: 3,
      files: 2,
      recordings: 1,
    });

    // Every table is classified, so none can be forgotten.
    const { rows: tables } = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
    expect(tables.map((table) => table.name).sort()).toEqual(Object.keys(TABLES).sort());

    // No row of any table says who the guest was or what it said.
    const traces = [
      MARKER,
      erased.guest.username,
      erased.guest.jabberusername,
      erased.guest.fingerprint,
      erased.email,
      erased.call.callId,
      erased.legCallId,
      erased.uploadId,
      erased.agentUploadId,
      erased.address,
    ];
    for (const { name } of tables.filter((table) => TABLES[table.name] !== 'limit window')) {
      const { rows } = await sql<{ row: string }>`
        select row_to_json(t)::text as row from ${sql.table(name)} t`.execute(db);
      for (const { row } of rows) {
        for (const trace of traces) expect(row, `${name}: ${row}`).not.toContain(trace);
      }
    }
    // No column naming a guest names this one.
    const { rows: guestColumns } = await sql<{ table: string; column: string }>`
      select table_name as table, column_name as column from information_schema.columns
      where table_schema = current_schema() and column_name like '%guest_id'`.execute(db);
    expect(guestColumns.map((c) => `${c.table}.${c.column}`).sort()).toEqual([
      'call_bugs.guest_id',
      'call_reports.guest_id',
      'form_submissions.guest_id',
      'rating_submissions.guest_id',
      'report_conversations.guest_id',
      'uploads.guest_id',
    ]);
    for (const { table, column } of guestColumns) {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from ${sql.table(table)}
        where ${sql.ref(column)} = ${erased.guest.id}`.execute(db);
      expect(rows[0]?.n, `${table}.${column}`).toBe(0);
    }
    expect(
      await db.selectFrom('guests').select('id').where('id', '=', erased.guest.id).execute(),
    ).toEqual([]);

    // No file of the guest is left in the data folder; the other guest's are all there.
    const files = await filesUnder(t.config.dataDir);
    for (const path of files) {
      const content = await readFile(path, 'latin1');
      for (const trace of traces) expect(`${path}\n${content}`).not.toContain(trace);
    }
    expect(files.some((path) => path.includes(kept.uploadId))).toBe(true);
    expect(files.some((path) => path.includes(kept.agentUploadId))).toBe(true);
    expect(files.some((path) => path.endsWith(kept.film))).toBe(true);
    expect(files.some((path) => path.endsWith(kept.part))).toBe(true);

    // Its XMPP account's state nodes are gone.
    expect(await pepNodesOf(guestJid)).toEqual([]);

    // The reports count the call as before, with nobody behind it.
    const reportAfter = await db
      .selectFrom('report_conversations')
      .selectAll()
      .where('origin_id', '=', erased.callReportIds[0] ?? 0)
      .executeTakeFirstOrThrow();
    expect(reportAfter).toEqual({
      ...reportBefore,
      call_id: expect.not.stringContaining(erased.guest.username),
      guest_id: expect.any(Number),
      rating_submission_ids: [],
    });
    expect(reportAfter).toMatchObject({ rating: 4, recorded: true, holds: 1, transfers: 0 });
    expect(reportAfter.guest_id).not.toBe(erased.guest.id);
    const anonymous = await db
      .selectFrom('guests')
      .selectAll()
      .where('id', '=', reportAfter.guest_id)
      .executeTakeFirstOrThrow();
    expect(anonymous).toMatchObject({ fingerprint: 'erased', credential_hash: null });
    expect(anonymous.identity_removed_at).not.toBeNull();

    // The other guest is whole.
    expect(await guestHoldings(db, COMPANY, kept.guest.id)).toEqual(keptBefore);

    // The erasure is logged, with counts only; a second erasure finds nobody.
    const logged = await db
      .selectFrom('audit_entries')
      .selectAll()
      .where('action', '=', 'guest.erase')
      .executeTakeFirstOrThrow();
    expect(logged.after).toEqual({ calls: 2, answers: 3, files: 2, recordings: 1 });
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/company/${COMPANY}/guests/${erased.guest.id}`,
      headers: bearer(admin),
    });
    expect(again.statusCode).toBe(404);
  });
});
