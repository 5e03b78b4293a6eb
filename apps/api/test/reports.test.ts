import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  envelope,
  REPORT_CSV_COLUMNS,
  reportCallDetailSchema,
  reportCallPageSchema,
  reportSummarySchema,
  type ReportCall,
} from '@frontdesk/protocol';
import { SEEDED_COMPANY, seedDemo } from '../src/db/seed.ts';
import { bearer, buildTestApp, loginStaff, staffIdOf, type TestApp } from './helper.ts';
import {
  addConversation,
  addEvents,
  addGuest,
  addQuality,
  addRatingSubmission,
  addRecording,
  after,
  backdate,
} from './report-fixture.ts';

/**
 * The reports over a known day of the demo company (Europe/London, open Mon–Fri 08:00–20:00):
 * Monday 1 June 2026, when London keeps BST (UTC+1), so the company's day runs from
 * 2026-05-31T23:00Z to 2026-06-01T23:00Z. Every figure below is worked out by hand from the
 * calls written in `beforeAll` (times in UTC; waits and handle times in seconds):
 *
 *  call  start     outcome         wait agent(s)          handle  other
 *  c13   05-31 23:30 answered       12  Ada               60     00:30 BST: outside hours
 *  c1    09:00     answered         10  Ada               300    rated 5, rating form, quality
 *  c2    09:10     answered         40  Bo                600    rated 2, recording ready
 *  c3    09:20     short abandon     3  –                 –
 *  c4    09:30     abandoned        30  –                 –      offer to Ada ran out
 *  c5    10:00     answered          5  Ada               175    2 holds (30 s + 60 s), rated 4,
 *                                                                rating form, recording pending
 *  c6    11:00     answered         15  Ada → Bo          105+160 transferred, rated 3 (leg 2),
 *                                                                relayed, round trip 500 (poor)
 *  c7    12:00     blocked
 *  c8    12:05     out of quota
 *  c9    13:00     answered         20  Bo                60     category "=1+2" (formula-like)
 *  c12   14:00     live (waiting)        –                       offer to Bo ran out
 *  c10   19:30     answered          8  Ada               100    20:30 BST: outside hours,
 *                                                                recording failed
 *  and c11, of another company (Cy), 09:05: never counted.
 */
describe('reports', () => {
  let t: TestApp;
  let admin: string;
  let ada: number;
  let bo: number;
  let formulaCategory: number;
  const calls: Record<string, { id: number; callId: string }[]> = {};
  const DAY = '2026-06-01';
  const company = SEEDED_COMPANY.demo;
  const at = (time: string) => `2026-06-01T${time}Z`;

  beforeAll(async () => {
    t = await buildTestApp(
      {},
      { seed: (db, config) => seedDemo(db, { fingerprintKey: config.secrets.guestFingerprint }) },
    );
    const { db } = t.app;
    admin = await loginStaff(t.app, 'admin@frontdesk.demo');
    ada = await staffIdOf(t.app, 'ada@frontdesk.demo');
    bo = await staffIdOf(t.app, 'bo@frontdesk.demo');
    const cy = await staffIdOf(t.app, 'cy@frontdesk.demo');
    formulaCategory = (
      await db
        .insertInto('categories')
        .values({ company_id: company, name: '=1+2,"x"', room_name: 'frontdesk-demo-formula' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const conversation = async (
      name: string,
      legs: Parameters<typeof addConversation>[3],
      companyId: number = company,
    ) => {
      const guest = await addGuest(db, companyId);
      calls[name] = await addConversation(db, companyId, guest, legs);
      return guest;
    };
    const answered = (start: string, wait: number, agentId: number, handle: number, more = {}) => ({
      at: new Date(start),
      categoryId: 1,
      initiatedAt: after(start, 0),
      answeredAt: after(start, wait),
      agentId,
      endedAt: after(start, wait + handle),
      endedBy: 'guest' as const,
      ...more,
    });

    await conversation('c13', [answered('2026-05-31T23:30:00Z', 12, ada, 60)]);
    const c1Guest = await conversation('c1', [
      answered(at('09:00:00'), 10, ada, 300, { rating: 5, callMethod: 'p2p' }),
    ]);
    await conversation('c2', [answered(at('09:10:00'), 40, bo, 600, { rating: 2 })]);
    await conversation('c3', [
      { at: new Date(at('09:20:00')), categoryId: 1, endedAt: after(at('09:20:00'), 3) },
    ]);
    await conversation('c4', [
      { at: new Date(at('09:30:00')), categoryId: 1, endedAt: after(at('09:30:00'), 30) },
    ]);
    const c5Guest = await conversation('c5', [
      answered(at('10:00:00'), 5, ada, 175, { rating: 4 }),
    ]);
    const c6Guest = await conversation('c6', [
      { ...answered(at('11:00:00'), 15, ada, 105), transferToStaffId: bo, endedBy: 'server' },
      {
        at: after(at('11:00:00'), 120),
        categoryId: 1,
        answeredAt: after(at('11:00:00'), 140),
        agentId: bo,
        endedAt: after(at('11:00:00'), 300),
        endedBy: 'guest',
        rating: 3,
        notes: 'Moved to billing',
      },
    ]);
    await conversation('c7', [{ at: new Date(at('12:00:00')), categoryId: 1, status: 'blocked' }]);
    await conversation('c8', [
      { at: new Date(at('12:05:00')), categoryId: 1, status: 'outOfQuota' },
    ]);
    await conversation('c9', [
      { ...answered(at('13:00:00'), 20, bo, 60), categoryId: formulaCategory },
    ]);
    await conversation('c12', [{ at: new Date(at('14:00:00')), categoryId: 1 }]);
    await conversation('c10', [answered(at('19:30:00'), 8, ada, 100)]);
    await conversation('c11', [answered(at('09:05:00'), 10, cy, 50, { categoryId: null })], 12);

    const first = (name: string) => calls[name]?.[0]?.id ?? 0;
    await addEvents(db, company, first('c4'), [
      {
        kind: 'offered',
        at: after(at('09:30:00'), 0),
        until: after(at('09:30:00'), 15),
        staffId: ada,
      },
    ]);
    await addEvents(db, company, first('c12'), [
      {
        kind: 'offered',
        at: after(at('14:00:00'), 0),
        until: after(at('14:00:00'), 15),
        staffId: bo,
      },
    ]);
    await addEvents(db, company, first('c5'), [
      { kind: 'held', at: after(at('10:00:00'), 60), staffId: ada },
      { kind: 'resumed', at: after(at('10:00:00'), 90), staffId: ada },
      { kind: 'held', at: after(at('10:00:00'), 120), staffId: ada },
    ]);
    const c6Second = calls.c6?.[1]?.id ?? 0;
    await addEvents(db, company, first('c6'), [
      // Answered within its turn: not missed.
      {
        kind: 'offered',
        at: after(at('11:00:00'), 1),
        until: after(at('11:00:00'), 16),
        staffId: ada,
      },
      {
        kind: 'transfer_requested',
        at: after(at('11:00:00'), 110),
        staffId: ada,
        details: { toStaffId: bo },
      },
    ]);
    await addEvents(db, company, c6Second, [
      {
        kind: 'offered',
        at: after(at('11:00:00'), 120),
        until: after(at('11:00:00'), 130),
        staffId: ada,
      },
    ]);
    await addQuality(db, company, first('c1'), after(at('09:00:00'), 310), {
      role: 'guest',
      setupMs: 800,
      candidate: 'host',
      received: 990,
      lost: 10,
      roundTripMs: 50,
    });
    await addQuality(db, company, first('c6'), after(at('11:00:00'), 120), {
      role: 'guest',
      setupMs: 600,
      candidate: 'srflx',
      received: 1900,
      lost: 100,
      roundTripMs: 100,
    });
    await addQuality(db, company, c6Second, after(at('11:00:00'), 300), {
      role: 'agent',
      setupMs: 1200,
      candidate: 'relay',
      received: 1000,
      lost: 0,
      roundTripMs: 500,
    });
    await addRecording(db, company, first('c2'), 'ready');
    await addRecording(db, company, first('c5'), 'pending');
    await addRecording(db, company, first('c10'), 'failed');
    await addRatingSubmission(
      db,
      c1Guest.id,
      first('c1'),
      2,
      { score: 5, resolved: 'yes' },
      after(at('09:00:00'), 320),
    );
    await addRatingSubmission(
      db,
      c5Guest.id,
      first('c5'),
      2,
      { score: 4, resolved: 'partly', comments: 'Kind, but slow' },
      after(at('10:00:00'), 200),
    );
    await db
      .insertInto('form_submissions')
      .values({
        company_id: company,
        guest_id: c6Guest.id,
        form_id: 1,
        service_type: 'Talk',
        answers: JSON.stringify({ name: 'Grace', email: 'grace@example.com', topic: 'account' }),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
      .then(({ id }) => backdate(db, 'form_submissions', id, after(at('11:00:00'), -60)));
    await db
      .insertInto('uploads')
      .values({
        id: 'upload-c6',
        company_id: company,
        guest_id: c6Guest.id,
        call_report_id: first('c6'),
        type: 'image',
        content_type: 'image/png',
        size_bytes: 2048,
        original_name: 'receipt.png',
      })
      .execute();
    await backdate(db, 'uploads', 'upload-c6', after(at('11:00:00'), 60));
    await db
      .insertInto('call_bugs')
      .values({
        company_id: company,
        guest_id: c6Guest.id,
        call_id: calls.c6?.[1]?.callId ?? '',
        call_report_id: c6Second,
        guest_log: JSON.stringify([{ level: 'warn' }, { level: 'error' }]),
        guest_state: JSON.stringify({}),
        guest_client_info: JSON.stringify({ browser: 'Firefox' }),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
      .then(({ id }) => backdate(db, 'call_bugs', id, after(at('11:00:00'), 180)));
  });
  afterAll(() => t.close());

  const get = (path: string, token = admin) =>
    t.app.inject({ method: 'GET', url: `/api/reports/${path}`, headers: bearer(token) });
  const summary = async (query: string) => {
    const response = await get(`summary?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return envelope(reportSummarySchema).parse(response.json()).data;
  };
  const page = async (query: string) => {
    const response = await get(`calls?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return envelope(reportCallPageSchema).parse(response.json()).data;
  };
  const callIdOf = (name: string) => calls[name]?.[0]?.callId;
  const names = (listed: readonly ReportCall[]) =>
    listed.map((call) => Object.keys(calls).find((name) => callIdOf(name) === call.callId));

  describe('GET /api/reports/summary', () => {
    it("answers every figure of the company's day as worked out by hand", async () => {
      const figures = await summary(`from=${DAY}&to=${DAY}`);
      expect(figures.range).toEqual({
        from: '2026-05-31T23:00:00.000Z',
        to: '2026-06-01T23:00:00.000Z',
        timeZone: 'Europe/London',
      });
      // Let through: all twelve but the blocked c7 and the out-of-quota c8.
      expect(figures.calls).toBe(10);
      // c13, c1, c2, c5, c6, c9, c10.
      expect(figures.answered).toBe(7);
      // c4 waited 30 s; c3's 3 s is under the 5 s cut-off.
      expect(figures.abandoned).toBe(1);
      expect(figures.shortAbandoned).toBe(1);
      expect(figures.live).toBe(1);
      expect(figures.refused).toEqual({ blocked: 1, outOfQuota: 1 });
      // 1 / (7 + 1).
      expect(figures.abandonmentRate).toBe(0.125);
      // (12 + 10 + 40 + 5 + 15 + 20 + 8) / 7 = 110 / 7 s = 15 714.28… ms.
      expect(figures.averageSpeedOfAnswerMs).toBe(15714);
      // Within 20 s: c13, c1, c5, c6, c9 (20 s exactly), c10 → 6 / (7 + 1).
      expect(figures.serviceLevel).toEqual({ thresholdSeconds: 20, target: 0.8, ratio: 0.75 });
      // (60 + 300 + 600 + 175 + (105 + 160) + 60 + 100) / 7 = 1560 / 7 s = 222 857.14… ms.
      expect(figures.averageHandleTimeMs).toBe(222857);
      // c5: 10:01:00–10:01:30, then 10:02:00 until its end at 10:03:00.
      expect(figures.holds).toEqual({ count: 2, calls: 1, totalMs: 90_000, averageMs: 45_000 });
      expect(figures.transfers).toBe(1);
      // Ratings 5 (c1), 2 (c2), 4 (c5), 3 (c6): 4 of 7 answered; 4 and 5 are 2 of 4; 14 / 4.
      expect(figures.csat).toEqual({
        responses: 4,
        responseRate: 4 / 7,
        score: 0.5,
        average: 3.5,
        distribution: [0, 1, 1, 1, 1],
      });
      // c1 (5, yes) and c5 (4, partly, a comment).
      expect(figures.ratingForms).toEqual([
        {
          formId: 2,
          title: 'Rate your call',
          responses: 2,
          fields: [
            {
              name: 'score',
              label: 'How was your call?',
              type: 'rating',
              responses: 2,
              average: 4.5,
            },
            {
              name: 'resolved',
              label: 'Did we solve your problem?',
              type: 'select',
              responses: 2,
              counts: [
                { value: 'yes', label: 'Yes', count: 1 },
                { value: 'partly', label: 'Partly', count: 1 },
                { value: 'no', label: 'No', count: 0 },
              ],
            },
            { name: 'comments', label: 'Comments', type: 'textarea', responses: 1 },
          ],
        },
      ]);
      // Monday (1) by London's clock, refused calls included: 00:30, four at 10:xx, 11:00,
      // 12:00, 13:00 and 13:05, 14:00, 15:00, 20:30.
      expect(figures.heatmap).toEqual([
        { weekday: 1, hour: 0, calls: 1 },
        { weekday: 1, hour: 10, calls: 4 },
        { weekday: 1, hour: 11, calls: 1 },
        { weekday: 1, hour: 12, calls: 1 },
        { weekday: 1, hour: 13, calls: 2 },
        { weekday: 1, hour: 14, calls: 1 },
        { weekday: 1, hour: 15, calls: 1 },
        { weekday: 1, hour: 20, calls: 1 },
      ]);
      expect(figures.agents).toEqual([
        {
          agentId: ada,
          name: 'Ada Agent',
          // Legs c13 60, c1 300, c5 175, c6 105, c10 100 s: 740 / 5; rated 5 (c1) and 4 (c5).
          answered: 5,
          averageHandleTimeMs: 148_000,
          csat: { responses: 2, score: 1 },
          // c4's offer ran out at 15 s (the guest left at 30 s); c6's second leg's at 10 s
          // (Bo answered at 20 s). c6's first offer was answered within it.
          missedOffers: 2,
        },
        {
          agentId: bo,
          name: 'Bo Agent',
          // Legs c2 600, c6 160, c9 60 s: 820 / 3 = 273 333.3… ms; rated 2 and 3.
          answered: 3,
          averageHandleTimeMs: 273_333,
          csat: { responses: 2, score: 0 },
          // c12's offer ran out while it still waits.
          missedOffers: 1,
        },
      ]);
      // c1: setup 800, loss 10/1000, 50 ms; c6 (both legs): setup max(600, 1200), loss
      // (100 + 0) / (2000 + 1000), round trip max(100, 500) — relayed and poor (over 400 ms).
      expect(figures.quality).toEqual({
        measured: 2,
        relayed: 1,
        poor: 1,
        // Interpolated: 800 + 0.5 × 400, 800 + 0.95 × 400.
        setupMs: { median: 1000, p95: 1180 },
        // 50 + 0.5 × 450 = 275; 50 + 0.95 × 450 = 477.5.
        roundTripMs: { median: 275, p95: 478 },
        lossRatio: {
          median: expect.closeTo((0.01 + 1 / 30) / 2, 10),
          p95: expect.closeTo(0.01 + 0.95 * (1 / 30 - 0.01), 10),
        },
      });
      expect(figures.recordings).toEqual({ ready: 1, pending: 1, failed: 1 });
    });

    it("counts only what began in the company's opening hours with businessHours", async () => {
      const figures = await summary(`from=${DAY}&to=${DAY}&businessHours=true`);
      // Without c13 (00:30) and c10 (20:30).
      expect(figures.calls).toBe(8);
      expect(figures.answered).toBe(5);
      // (10 + 40 + 5 + 15 + 20) / 5 s.
      expect(figures.averageSpeedOfAnswerMs).toBe(18_000);
      // c1, c5, c6, c9 of 5 answered + 1 abandoned.
      expect(figures.serviceLevel.ratio).toBeCloseTo(4 / 6, 10);
      // (300 + 600 + 175 + 265 + 60) / 5 s.
      expect(figures.averageHandleTimeMs).toBe(280_000);
      expect(figures.recordings).toEqual({ ready: 1, pending: 1, failed: 0 });
    });

    it('narrows to a category and to an agent', async () => {
      const category = await summary(`from=${DAY}&to=${DAY}&categoryId=${formulaCategory}`);
      expect(category).toMatchObject({
        calls: 1,
        answered: 1,
        abandoned: 0,
        abandonmentRate: 0,
        averageSpeedOfAnswerMs: 20_000,
        serviceLevel: { ratio: 1 },
        refused: { blocked: 0, outOfQuota: 0 },
      });
      // Bo answered a leg of c2, c6 and c9: waits 40, 15, 20 s; handles 600, 265, 60 s.
      const agent = await summary(`from=${DAY}&to=${DAY}&agentId=${bo}`);
      expect(agent).toMatchObject({
        calls: 3,
        answered: 3,
        averageSpeedOfAnswerMs: 25_000,
        averageHandleTimeMs: 308_333,
        transfers: 1,
      });
      expect(agent.agents.map((a) => a.agentId)).toEqual([bo]);
    });

    it('moves the cut-offs as asked', async () => {
      const figures = await summary(
        `from=${DAY}&to=${DAY}&shortAbandonSeconds=2&serviceLevelSeconds=10&serviceLevelTarget=0.9`,
      );
      // c3's 3 s now counts as abandoned.
      expect(figures).toMatchObject({ abandoned: 2, shortAbandoned: 0 });
      // Within 10 s: c1 (10 s), c5, c10, of 7 answered + 2 abandoned.
      expect(figures.serviceLevel).toEqual({ thresholdSeconds: 10, target: 0.9, ratio: 3 / 9 });
      expect(figures.abandonmentRate).toBe(2 / 9);
    });

    it('answers null for ratios with nothing to divide by', async () => {
      const figures = await summary('from=2026-01-05&to=2026-01-05');
      expect(figures).toMatchObject({
        calls: 0,
        abandonmentRate: null,
        averageSpeedOfAnswerMs: null,
        serviceLevel: { ratio: null },
        averageHandleTimeMs: null,
        holds: { count: 0, averageMs: null },
        csat: { responses: 0, responseRate: null, score: null, average: null },
        heatmap: [],
        agents: [],
        ratingForms: [],
      });
    });

    it('takes instants with offsets: to is then exclusive', async () => {
      const figures = await summary(
        'from=2026-06-01T10:00:00%2B01:00&to=2026-06-01T10:30:00%2B01:00',
      );
      // 09:00Z up to (not including) 09:30Z: c1, c2, c3.
      expect(figures.calls).toBe(3);
    });
  });

  describe('GET /api/reports/calls', () => {
    it('lists the conversations newest first, page by page with an opaque cursor', async () => {
      const seen: ReportCall[] = [];
      let cursor: string | null = null;
      const sizes: number[] = [];
      do {
        const next: { calls: ReportCall[]; nextCursor: string | null } = await page(
          `from=${DAY}&to=${DAY}&limit=5${cursor ? `&cursor=${cursor}` : ''}`,
        );
        sizes.push(next.calls.length);
        seen.push(...next.calls);
        cursor = next.nextCursor;
      } while (cursor);
      expect(sizes).toEqual([5, 5, 2]);
      expect(names(seen)).toEqual([
        'c10',
        'c12',
        'c9',
        'c8',
        'c7',
        'c6',
        'c5',
        'c4',
        'c3',
        'c2',
        'c1',
        'c13',
      ]);
    });

    it('shows each conversation as it happened', async () => {
      const { calls: listed } = await page(`from=${DAY}&to=${DAY}&outcome=answered&relayed=true`);
      expect(listed).toEqual([
        {
          callId: callIdOf('c6'),
          startedAt: '2026-06-01T11:00:00.000Z',
          answeredAt: '2026-06-01T11:00:15.000Z',
          endedAt: '2026-06-01T11:05:00.000Z',
          waitMs: 15_000,
          handleMs: 265_000,
          outcome: 'answered',
          callType: 'video',
          agent: { id: ada, name: 'Ada Agent' },
          category: { id: 1, name: 'Sales' },
          rating: 3,
          holds: 0,
          transfers: 1,
          recorded: false,
          relayed: true,
          callMethod: 'mediaServer',
          setupMs: 1200,
          roundTripMs: 500,
          lossRatio: expect.closeTo(1 / 30, 10),
          poorQuality: true,
        },
      ]);
    });

    it("shows each conversation's method and whether its media was relayed (decision 0045)", async () => {
      const { calls: listed } = await page(`from=${DAY}&to=${DAY}&outcome=answered`);
      // Newest first, as the list goes.
      expect(listed.map((call) => [call.callId, call.callMethod, call.relayed])).toEqual([
        [callIdOf('c10'), 'mediaServer', null],
        [callIdOf('c9'), 'mediaServer', null],
        // Its second leg's agent reported a relay candidate: the conversation was relayed.
        [callIdOf('c6'), 'mediaServer', true],
        [callIdOf('c5'), 'mediaServer', null],
        [callIdOf('c2'), 'mediaServer', null],
        // The guest reported a host candidate, and no side a relay.
        [callIdOf('c1'), 'p2p', false],
        [callIdOf('c13'), 'mediaServer', null],
      ]);
    });

    it.each([
      ['outcome=answered', ['c10', 'c9', 'c6', 'c5', 'c2', 'c1', 'c13']],
      ['outcome=shortAbandoned', ['c3']],
      ['outcome=abandoned', ['c4']],
      ['outcome=live', ['c12']],
      ['outcome=blocked', ['c7']],
      ['rating=4', ['c5']],
      ['recorded=true', ['c10', 'c5', 'c2']],
      ['relayed=false', ['c1']],
      // c5's two holds are one held conversation.
      ['held=true', ['c5']],
      ['held=false&outcome=answered', ['c10', 'c9', 'c6', 'c2', 'c1', 'c13']],
      ['transferred=true', ['c6']],
      ['transferred=false&outcome=answered', ['c10', 'c9', 'c5', 'c2', 'c1', 'c13']],
      // c6's round trip of 500 ms; c1, the other one measured, was fine.
      ['poorQuality=true', ['c6']],
      ['poorQuality=false&relayed=false', ['c1']],
      // The guests who rated: 3 (c6's second leg), 4, 2 and 5.
      ['rated=true', ['c6', 'c5', 'c2', 'c1']],
      ['rated=false&outcome=answered', ['c10', 'c9', 'c13']],
      ['agentId=BO', ['c9', 'c6', 'c2']],
      ['categoryId=FORMULA', ['c9']],
      ['weekday=1&hour=10', ['c4', 'c3', 'c2', 'c1']],
      ['businessHours=true&outcome=answered', ['c9', 'c6', 'c5', 'c2', 'c1']],
    ])('filters by %s', async (filter, expected) => {
      const query = filter.replace('BO', String(bo)).replace('FORMULA', String(formulaCategory));
      const { calls: listed, nextCursor } = await page(`from=${DAY}&to=${DAY}&${query}`);
      expect(names(listed)).toEqual(expected);
      expect(nextCursor).toBeNull();
    });

    it('pages through a selective filter without losing any', async () => {
      const first = await page(`from=${DAY}&to=${DAY}&outcome=answered&limit=4`);
      expect(names(first.calls)).toEqual(['c10', 'c9', 'c6', 'c5']);
      const second = await page(
        `from=${DAY}&to=${DAY}&outcome=answered&limit=4&cursor=${first.nextCursor}`,
      );
      expect(names(second.calls)).toEqual(['c2', 'c1', 'c13']);
      expect(second.nextCursor).toBeNull();
    });
  });

  /** RFC 4180 fields: quoted ones may hold commas, doubled quotes and line breaks. */
  function parseCsv(text: string): string[][] {
    const rows: string[][] = [];
    let row: string[] = [];
    let field = '';
    let quoted = false;
    for (let i = 0; i < text.length; i++) {
      const char = text[i];
      if (quoted) {
        if (char === '"' && text[i + 1] === '"') {
          field += '"';
          i++;
        } else if (char === '"') quoted = false;
        else field += char;
      } else if (char === '"') quoted = true;
      else if (char === ',') {
        row.push(field);
        field = '';
      } else if (char === '\r' && text[i + 1] === '\n') {
        row.push(field);
        rows.push(row);
        row = [];
        field = '';
        i++;
      } else field += char;
    }
    return rows;
  }

  describe('GET /api/reports/calls?format=csv', () => {
    it('answers every matching conversation as a file, formulas disarmed', async () => {
      const response = await get(`calls?from=${DAY}&to=${DAY}&format=csv&limit=1`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toBe(
        'attachment; filename="calls-2026-06-01-to-2026-06-01.csv"',
      );
      const [header, ...rows] = parseCsv(response.body);
      expect(header).toEqual([...REPORT_CSV_COLUMNS]);
      // Every conversation, whatever the limit: the file does not page.
      expect(rows).toHaveLength(12);
      const byId = new Map(rows.map((row) => [row[0], row]));
      expect(byId.get(callIdOf('c9'))).toEqual([
        callIdOf('c9'),
        '2026-06-01T13:00:00.000Z',
        '2026-06-01T13:00:20.000Z',
        '2026-06-01T13:01:20.000Z',
        '20',
        '60',
        'answered',
        'video',
        'Bo Agent',
        // The category's name would be a formula: it is shown as text.
        `'=1+2,"x"`,
        '',
        '0',
        '0',
        'false',
        '',
        '',
        '',
        '',
        'mediaServer',
      ]);
      expect(byId.get(callIdOf('c1'))?.at(-1)).toBe('p2p');
      expect(byId.get(callIdOf('c3'))?.slice(4, 7)).toEqual(['3', '', 'shortAbandoned']);
    });

    it('narrows the file by the same filters as the list', async () => {
      const response = await get(`calls?from=${DAY}&to=${DAY}&format=csv&rated=true&held=false`);
      expect(response.statusCode).toBe(200);
      // Rated: c6, c5, c2, c1; c5 was held.
      expect(
        parseCsv(response.body)
          .slice(1)
          .map((row) => row[0]),
      ).toEqual([callIdOf('c6'), callIdOf('c2'), callIdOf('c1')]);
    });

    it('streams a large export in chunks, every row once', async () => {
      const { db } = t.app;
      const guest = await addGuest(db, company);
      const start = Date.parse('2026-07-01T00:00:00Z');
      const count = 5000;
      // One statement: the reports read these as any other conversations.
      await db
        .insertInto('call_reports')
        .values(
          Array.from({ length: count }, (_, i) => {
            const callId = `${guest.username}--bulk${i}`;
            return {
              company_id: company,
              guest_id: guest.id,
              call_id: callId,
              origin_call_id: callId,
              source: 'site' as const,
              status: 'ok' as const,
              answered_at: new Date(start + i * 1000 + 4000),
              agent_id: ada,
              ended_at: new Date(start + i * 1000 + 64_000),
              end_reason: 'completed' as const,
            };
          }),
        )
        .execute();
      await sql`update call_reports set created_at = answered_at - interval '4 seconds'
        where guest_id = ${guest.id}`.execute(db);
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/reports/calls?from=2026-07-01&to=2026-07-01&format=csv',
        headers: bearer(admin),
        payloadAsStream: true,
      });
      expect(response.statusCode).toBe(200);
      const stream = response.stream();
      let chunks = 0;
      let text = '';
      for await (const chunk of stream) {
        chunks += 1;
        text += String(chunk);
      }
      const rows = parseCsv(text).slice(1);
      expect(rows).toHaveLength(count);
      expect(new Set(rows.map((row) => row[0])).size).toBe(count);
      // Newest first, and sent in pieces rather than as one body.
      expect(rows[0]?.[0]).toBe(`${guest.username}--bulk${count - 1}`);
      expect(rows.at(-1)?.[0]).toBe(`${guest.username}--bulk0`);
      expect(chunks).toBeGreaterThan(5);
    });
  });

  describe('GET /api/reports/calls/:callId', () => {
    it("tells a transferred conversation's whole story", async () => {
      const response = await get(`calls/${callIdOf('c6')}`);
      expect(response.statusCode, response.body).toBe(200);
      const detail = envelope(reportCallDetailSchema).parse(response.json()).data;
      const [first, second] = calls.c6 ?? [];
      expect(detail.call).toMatchObject({ callId: first?.callId, transfers: 1, rating: 3 });
      expect(detail.legs).toEqual([
        {
          callId: first?.callId,
          createdAt: '2026-06-01T11:00:00.000Z',
          answeredAt: '2026-06-01T11:00:15.000Z',
          endedAt: '2026-06-01T11:02:00.000Z',
          agent: { id: ada, name: 'Ada Agent' },
          category: { id: 1, name: 'Sales' },
          notes: null,
          wrapUp: null,
        },
        {
          callId: second?.callId,
          createdAt: '2026-06-01T11:02:00.000Z',
          answeredAt: '2026-06-01T11:02:20.000Z',
          endedAt: '2026-06-01T11:05:00.000Z',
          agent: { id: bo, name: 'Bo Agent' },
          category: { id: 1, name: 'Sales' },
          notes: 'Moved to billing',
          wrapUp: null,
        },
      ]);
      const adaPerson = { id: ada, name: 'Ada Agent' };
      const boPerson = { id: bo, name: 'Bo Agent' };
      expect(detail.timeline).toEqual([
        {
          at: '2026-06-01T11:00:00.000Z',
          kind: 'initiated',
          callId: first?.callId,
          staff: null,
        },
        {
          at: '2026-06-01T11:00:00.000Z',
          kind: 'queued',
          callId: first?.callId,
          staff: null,
        },
        {
          at: '2026-06-01T11:00:01.000Z',
          kind: 'offered',
          callId: first?.callId,
          staff: adaPerson,
        },
        {
          at: '2026-06-01T11:00:15.000Z',
          kind: 'answered',
          callId: first?.callId,
          staff: adaPerson,
        },
        {
          at: '2026-06-01T11:01:50.000Z',
          kind: 'transfer_requested',
          callId: first?.callId,
          staff: adaPerson,
          target: { type: 'agent', name: 'Bo Agent' },
        },
        {
          at: '2026-06-01T11:02:00.000Z',
          kind: 'transferred',
          callId: second?.callId,
          staff: null,
          target: { type: 'agent', name: 'Bo Agent' },
        },
        {
          at: '2026-06-01T11:02:00.000Z',
          kind: 'queued',
          callId: second?.callId,
          staff: null,
        },
        {
          at: '2026-06-01T11:02:00.000Z',
          kind: 'offered',
          callId: second?.callId,
          staff: adaPerson,
        },
        {
          at: '2026-06-01T11:02:10.000Z',
          kind: 'offer_missed',
          callId: second?.callId,
          staff: adaPerson,
        },
        {
          at: '2026-06-01T11:02:20.000Z',
          kind: 'answered',
          callId: second?.callId,
          staff: boPerson,
        },
        {
          at: '2026-06-01T11:03:00.000Z',
          kind: 'bug_reported',
          callId: second?.callId,
          staff: null,
        },
        {
          at: '2026-06-01T11:05:00.000Z',
          kind: 'ended',
          callId: second?.callId,
          staff: null,
          endedBy: 'guest',
        },
        {
          at: '2026-06-01T11:05:00.000Z',
          kind: 'rated',
          callId: second?.callId,
          staff: null,
          rating: 3,
        },
      ]);
      // The option's label, not its value.
      expect(detail.welcomeAnswers).toEqual([
        { name: 'name', label: 'Your name', value: 'Grace' },
        { name: 'email', label: 'E-mail', value: 'grace@example.com' },
        { name: 'topic', label: 'What is it about?', value: 'My account' },
      ]);
      expect(detail.guest).toEqual({ username: expect.any(String), previousCalls: 0 });
      expect(detail.files).toEqual([
        {
          id: 'upload-c6',
          name: 'receipt.png',
          type: 'image',
          sizeBytes: 2048,
          from: 'guest',
          at: '2026-06-01T11:01:00.000Z',
        },
      ]);
      expect(detail.bugs).toEqual([
        {
          id: expect.any(Number),
          at: '2026-06-01T11:03:00.000Z',
          clientInfo: { browser: 'Firefox' },
          logEntries: 2,
        },
      ]);
      expect(detail.quality.map((q) => [q.callId, q.role, q.roundTripMs])).toEqual([
        [first?.callId, 'guest', 100],
        [second?.callId, 'agent', 500],
      ]);
      expect(detail.ratingForm).toBeNull();
      expect(detail.recordings).toEqual([]);
    });

    it('answers the conversation for a later leg, with its rating form and recording', async () => {
      const second = calls.c6?.[1]?.callId ?? '';
      const viaLeg = await get(`calls/${second}`);
      expect(viaLeg.statusCode).toBe(200);
      expect(viaLeg.json().data.call.callId).toBe(callIdOf('c6'));

      const c5 = envelope(reportCallDetailSchema).parse(
        (await get(`calls/${callIdOf('c5')}`)).json(),
      ).data;
      expect(c5.ratingForm).toEqual({
        title: 'Rate your call',
        answers: [
          { name: 'score', label: 'How was your call?', value: '4' },
          { name: 'resolved', label: 'Did we solve your problem?', value: 'Partly' },
          { name: 'comments', label: 'Comments', value: 'Kind, but slow' },
        ],
      });
      expect(c5.recordings).toMatchObject([
        { callId: callIdOf('c5'), status: 'pending', url: null },
      ]);
      expect(
        c5.timeline.filter((e) => e.kind === 'held' || e.kind === 'resumed').map((e) => e.at),
      ).toEqual([
        '2026-06-01T10:01:00.000Z',
        '2026-06-01T10:01:30.000Z',
        '2026-06-01T10:02:00.000Z',
      ]);
      const c4 = envelope(reportCallDetailSchema).parse(
        (await get(`calls/${callIdOf('c4')}`)).json(),
      ).data;
      expect(c4.timeline.map((e) => e.kind)).toEqual([
        'initiated',
        'offered',
        'offer_missed',
        'abandoned',
      ]);
    });

    it('answers 404 for a call id nobody made', async () => {
      const response = await get(`calls/${callIdOf('c1')?.replace(/--.*/, '--nothing')}`);
      expect(response.statusCode).toBe(404);
    });
  });
});
