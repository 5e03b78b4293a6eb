import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callReportSchema, envelope, formatBrowserUsername } from '@frontdesk/protocol';
import { BLOCKED_FINGERPRINT, SEEDED_COMPANY } from '../src/db/seed.ts';
import {
  buildTestApp,
  callApi,
  loginActors,
  loginGuest,
  newCallId,
  newBrowserUsername,
  type TestApp,
  type TestGuest,
} from './helper.ts';

describe('call reports', () => {
  let t: TestApp;
  let guest: TestGuest;
  let otherGuest: TestGuest;
  let agent: string;
  let foreignAgent: string;

  beforeAll(async () => {
    t = await buildTestApp();
    ({ guest, otherGuest, agent, foreignAgent } = await loginActors(t.app));
  });
  afterAll(() => t.close());

  const send = (method: 'POST' | 'PUT', path: string, body: object, token?: string) =>
    callApi(t.app, method, path, body, token);
  const add = (who: TestGuest, body: object = {}, token = who.token) =>
    send(
      'POST',
      'call-report/add',
      { call_id: newCallId(who), company: 5, source: 'site', ...body },
      token,
    );
  const report = async (callId: string, token = agent) => {
    const response = await send(
      'PUT',
      'call-report/update-timestamp',
      { call_id: callId, guest_exit_timestamp: true },
      token,
    );
    return envelope(callReportSchema).parse(response.json()).data;
  };

  describe('POST /api/call-report/add', () => {
    it('records the call and lets it start (201, status ok)', async () => {
      const callId = newCallId(guest);
      const response = await add(guest, {
        call_id: callId,
        category_id: 2,
        guest_username: guest.username,
      });
      expect(response.statusCode).toBe(201);
      expect(response.json().data).toMatchObject({ status: 'ok', id: expect.any(Number) });
      // The call's XMPP and Janus credentials come with it (the guest had none before).
      expect(response.json().data.services.xmpp.jid).toMatch(/^g5-g[a-z2-7]{25}@/);
      expect(await report(callId)).toMatchObject({
        category_id: 2,
        origin_call_id: callId,
        previous_call_id: null,
      });
    });

    it('answers the same report when the same call is added again (200)', async () => {
      const callId = newCallId(guest);
      const first = await add(guest, { call_id: callId });
      const again = await add(guest, { call_id: callId });
      expect(again.statusCode).toBe(200);
      expect(again.json().data.id).toBe(first.json().data.id);
      expect(again.json().data.status).toBe('ok');
    });

    it('answers blocked for a guest on the block list', async () => {
      const blocked = await loginGuest(
        t.app,
        SEEDED_COMPANY.blockList,
        formatBrowserUsername(BLOCKED_FINGERPRINT, 'suffix0001'),
      );
      const response = await add(blocked, { company: SEEDED_COMPANY.blockList });
      expect(response.json().data.status).toBe('blocked');
      // Other guests of that company are let through.
      const fine = await loginGuest(t.app, SEEDED_COMPANY.blockList);
      expect((await add(fine, { company: SEEDED_COMPANY.blockList })).json().data.status).toBe(
        'ok',
      );
    });

    it('answers outOfQuota once the monthly quota is used, counting a transferred call once', async () => {
      const quotaGuest = await loginGuest(t.app, SEEDED_COMPANY.outOfQuota);
      expect(
        (await add(quotaGuest, { company: SEEDED_COMPANY.outOfQuota })).json().data.status,
      ).toBe('outOfQuota');

      await t.app.db
        .updateTable('companies')
        .set({ monthly_call_quota: 2 })
        .where('id', '=', SEEDED_COMPANY.aroundTheClock)
        .execute();
      const caller = await loginGuest(t.app, SEEDED_COMPANY.aroundTheClock);
      const first = newCallId(caller);
      expect((await add(caller, { call_id: first, company: 12 })).json().data.status).toBe('ok');
      const moved = await send(
        'POST',
        'call-report/hold-call',
        { origin_call_id: first, current_call_id: first, new_call_id: newCallId(caller) },
        caller.token,
      );
      expect(moved.statusCode).toBe(201);
      expect((await add(caller, { company: 12 })).json().data.status).toBe('ok');
      expect((await add(caller, { company: 12 })).json().data.status).toBe('outOfQuota');
    });

    it('lets exactly one of two simultaneous calls take the last call of the quota', async () => {
      await t.app.db
        .updateTable('companies')
        .set({ monthly_call_quota: 1 })
        .where('id', '=', SEEDED_COMPANY.arabic)
        .execute();
      const [a, b] = await Promise.all([loginGuest(t.app, 10), loginGuest(t.app, 10)]);
      const answers = await Promise.all([add(a, { company: 10 }), add(b, { company: 10 })]);
      expect(answers.map((r) => r.json().data.status).sort()).toEqual(['ok', 'outOfQuota']);
    });

    it('refuses a call at an inactive company (403)', async () => {
      const dormant = await loginGuest(t.app, SEEDED_COMPANY.inactive);
      const response = await add(dormant, { company: SEEDED_COMPANY.inactive });
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('company_inactive');
    });

    it.each([
      ['another company', { company: SEEDED_COMPANY.arabic }, 'other_company'],
      ['another guest', { guest_username: `g${'b'.repeat(25)}` }, 'other_guest'],
    ])('refuses a guest acting for %s (403)', async (_name, body, code) => {
      const response = await add(guest, body);
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe(code);
    });

    it("refuses a call id that is not the guest's own (403)", async () => {
      const response = await add(guest, { call_id: newCallId(otherGuest) });
      expect(response.statusCode).toBe(403);
      expect(response.json().error.fields).toHaveProperty('call_id');
    });

    it('refuses the call id of the same browser at another company (403)', async () => {
      const browserUsername = newBrowserUsername();
      const [here, there] = [
        await loginGuest(t.app, 5, browserUsername),
        await loginGuest(t.app, 10, browserUsername),
      ];
      const callId = newCallId(here);
      expect((await add(here, { call_id: callId })).statusCode).toBe(201);
      const response = await add(there, { call_id: callId, company: 10 });
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('not_your_call');
    });

    it("refuses another company's category (400)", async () => {
      const response = await add(guest, { category_id: 8 });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatchObject({
        code: 'unknown_category',
        fields: { category_id: expect.any(String) },
      });
    });

    it('refuses agents (403) and callers without a token (401)', async () => {
      expect((await add(guest, {}, agent)).json().error.code).toBe('guests_only');
      const anonymous = await send('POST', 'call-report/add', {
        call_id: newCallId(guest),
        company: 5,
        source: 'site',
      });
      expect(anonymous.statusCode).toBe(401);
    });

    it.each([
      ['a malformed call id', { call_id: 'no-separator' }, 'call_id'],
      ['an unknown source', { source: 'phone' }, 'source'],
      ['a company as text', { company: 'five' }, 'company'],
      ['an unknown field', { extra: 1 }, 'extra'],
    ])('refuses %s with 400 naming the field', async (_name, body, field) => {
      const response = await add(guest, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toHaveProperty(field);
    });
  });

  describe('POST /api/call-report/admission', () => {
    const admission = (who: TestGuest | undefined, body: object, token = who?.token) =>
      send('POST', 'call-report/admission', body, token);
    const reportsOf = async (who: TestGuest) =>
      (
        await t.app.db
          .selectFrom('call_reports as r')
          .innerJoin('guests as g', 'g.id', 'r.guest_id')
          .select('r.id')
          .where('g.username', '=', who.username)
          .execute()
      ).length;

    it('answers what call-report/add would, before the camera, and records nothing', async () => {
      expect((await admission(guest, { company: 5 })).json().data).toEqual({ status: 'ok' });

      const blocked = await loginGuest(
        t.app,
        SEEDED_COMPANY.blockList,
        formatBrowserUsername(BLOCKED_FINGERPRINT, 'suffix0002'),
      );
      const refused = await admission(blocked, { company: SEEDED_COMPANY.blockList });
      expect(refused.statusCode).toBe(200);
      expect(refused.json().data).toEqual({ status: 'blocked' });
      expect(await reportsOf(blocked)).toBe(0);

      const quotaGuest = await loginGuest(t.app, SEEDED_COMPANY.outOfQuota);
      expect(
        (await admission(quotaGuest, { company: SEEDED_COMPANY.outOfQuota })).json().data,
      ).toEqual({ status: 'outOfQuota' });
      expect(await reportsOf(quotaGuest)).toBe(0);
    });

    it("answers the company's rules with the 403 codes of call-report/add", async () => {
      const dormant = await loginGuest(t.app, SEEDED_COMPANY.inactive);
      const response = await admission(dormant, { company: SEEDED_COMPANY.inactive });
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('company_inactive');
    });

    it('tells a guest nothing of another company, and nothing to agents or strangers', async () => {
      const foreign = await admission(guest, { company: SEEDED_COMPANY.blockList });
      expect(foreign.statusCode).toBe(403);
      expect(foreign.json().error.code).toBe('other_company');
      expect((await admission(guest, { company: 5 }, agent)).json().error.code).toBe('guests_only');
      expect((await admission(undefined, { company: 5 })).statusCode).toBe(401);
    });

    it.each([
      ['a company as text', { company: 'five' }, 'company'],
      ['an unknown field', { company: 5, call_id: 'x' }, 'call_id'],
    ])('refuses %s with 400 naming the field', async (_name, body, field) => {
      const response = await admission(guest, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toHaveProperty(field);
    });
  });

  describe('POST /api/call-report/hold-call', () => {
    const hold = (body: object, token: string) =>
      send('POST', 'call-report/hold-call', body, token);

    it('chains origin → current → new, and answers the same report when asked again', async () => {
      const origin = newCallId(guest);
      await add(guest, { call_id: origin, category_id: 1 });
      const second = newCallId(guest);
      const first = await hold(
        { origin_call_id: origin, current_call_id: origin, new_call_id: second, category_id: 3 },
        guest.token,
      );
      expect(first.statusCode).toBe(201);
      const third = newCallId(guest);
      const body = {
        origin_call_id: origin,
        current_call_id: second,
        new_call_id: third,
        guest_username: guest.username,
      };
      const moved = await hold(body, agent);
      expect(moved.statusCode).toBe(201);
      expect((await hold(body, guest.token)).json()).toEqual(moved.json());
      expect(await report(second)).toMatchObject({
        origin_call_id: origin,
        previous_call_id: origin,
        category_id: 3,
      });
      expect(await report(third)).toMatchObject({
        origin_call_id: origin,
        previous_call_id: second,
        category_id: 3,
        status: 'ok',
      });
    });

    it("keeps a webview guest's call a webview call through the chain (its rooms stay H.264)", async () => {
      const origin = newCallId(guest);
      expect(
        (await add(guest, { call_id: origin, webview: 'yes' })).json().error.fields,
      ).toHaveProperty('webview');
      expect((await add(guest, { call_id: origin, webview: true })).statusCode).toBe(201);
      const next = newCallId(guest);
      await hold({ origin_call_id: origin, current_call_id: origin, new_call_id: next }, agent);
      const rows = await t.app.db
        .selectFrom('call_reports')
        .select(['call_id', 'webview'])
        .where('call_id', 'in', [origin, next])
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { call_id: origin, webview: true },
        { call_id: next, webview: true },
      ]);
    });

    it('refuses an origin that is not the first call of its chain (400)', async () => {
      const origin = newCallId(guest);
      await add(guest, { call_id: origin });
      const second = newCallId(guest);
      await hold(
        { origin_call_id: origin, current_call_id: origin, new_call_id: second },
        guest.token,
      );
      const response = await hold(
        { origin_call_id: second, current_call_id: second, new_call_id: newCallId(guest) },
        guest.token,
      );
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('not_an_origin');
    });

    it('refuses a current call of another chain, a new id of another guest, or another guest_username (400)', async () => {
      const [origin, elsewhere] = [newCallId(guest), newCallId(guest)];
      await add(guest, { call_id: origin });
      await add(guest, { call_id: elsewhere });
      const cases = [
        [{ current_call_id: elsewhere, new_call_id: newCallId(guest) }, 'current_call_id'],
        [{ current_call_id: origin, new_call_id: newCallId(otherGuest) }, 'new_call_id'],
        [
          {
            current_call_id: origin,
            new_call_id: newCallId(guest),
            guest_username: otherGuest.username,
          },
          'guest_username',
        ],
      ] as const;
      for (const [body, field] of cases) {
        const response = await hold({ origin_call_id: origin, ...body }, agent);
        expect(response.statusCode).toBe(400);
        expect(response.json().error.fields).toHaveProperty(field);
      }
    });

    it('refuses a new call id that is already taken (409)', async () => {
      const [origin, taken] = [newCallId(guest), newCallId(guest)];
      await add(guest, { call_id: origin });
      await add(guest, { call_id: taken });
      const response = await hold(
        { origin_call_id: origin, current_call_id: origin, new_call_id: taken },
        guest.token,
      );
      expect(response.statusCode).toBe(409);
    });

    it("refuses another guest's call (403), another company's agent (403), an unknown call (404)", async () => {
      const origin = newCallId(guest);
      await add(guest, { call_id: origin });
      const body = {
        origin_call_id: origin,
        current_call_id: origin,
        new_call_id: newCallId(guest),
      };
      expect((await hold(body, otherGuest.token)).statusCode).toBe(403);
      expect((await hold(body, foreignAgent)).statusCode).toBe(403);
      const unknown = newCallId(guest);
      const response = await hold(
        { origin_call_id: unknown, current_call_id: unknown, new_call_id: newCallId(guest) },
        guest.token,
      );
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('call_report_not_found');
    });

    it('refuses a malformed body (400) and a missing token (401)', async () => {
      const response = await hold({ origin_call_id: 'x', current_call_id: 'y' }, guest.token);
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json().error.fields).sort()).toEqual([
        'current_call_id',
        'new_call_id',
        'origin_call_id',
      ]);
      expect((await send('POST', 'call-report/hold-call', {})).statusCode).toBe(400);
      const callId = newCallId(guest);
      const anonymous = await send('POST', 'call-report/hold-call', {
        origin_call_id: callId,
        current_call_id: callId,
        new_call_id: newCallId(guest),
      });
      expect(anonymous.statusCode).toBe(401);
    });
  });

  describe('PUT /api/call-report/update', () => {
    const update = (body: object, token: string) => send('PUT', 'call-report/update', body, token);

    it('changes the named fields: an ICE failure with the SDP (spec §8), then the rating', async () => {
      const callId = newCallId(guest);
      await add(guest, { call_id: callId });
      const failed = await update(
        { call_id: callId, success: false, guest_local_sdp: 'v=0\r\n' },
        guest.token,
      );
      expect(failed.statusCode).toBe(200);
      expect(failed.json().data).toMatchObject({ call_id: callId, success: false, rating: null });
      const rated = await update(
        { call_id: callId, rating: 4, call_type: 'video', category_id: 1 },
        agent,
      );
      expect(rated.json().data).toMatchObject({
        success: false,
        rating: 4,
        call_type: 'video',
        category_id: 1,
      });
    });

    it.each([
      ['no change', {}, 'body'],
      ['a rating of 6', { rating: 6 }, 'rating'],
      ['an unknown field', { status: 'ok' }, 'status'],
      ['a call type of text', { call_type: 'text' }, 'call_type'],
    ])('refuses %s with 400 naming the field', async (_name, body, field) => {
      const response = await update({ call_id: newCallId(guest), ...body }, guest.token);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toHaveProperty(field);
    });

    it("refuses another guest's report (403), an agent of another company (403), an unknown call (404), no token (401)", async () => {
      const callId = newCallId(guest);
      await add(guest, { call_id: callId });
      expect((await update({ call_id: callId, success: true }, otherGuest.token)).statusCode).toBe(
        403,
      );
      expect((await update({ call_id: callId, success: true }, foreignAgent)).statusCode).toBe(403);
      expect(
        (await update({ call_id: newCallId(guest), success: true }, guest.token)).statusCode,
      ).toBe(404);
      expect(
        (await send('PUT', 'call-report/update', { call_id: callId, success: true })).statusCode,
      ).toBe(401);
    });
  });

  describe('PUT|POST /api/call-report/update-timestamp', () => {
    it('stamps the call initiated once and the guest exit each time', async () => {
      const callId = newCallId(guest);
      await add(guest, { call_id: callId });
      const stamp = (body: object) =>
        send('PUT', 'call-report/update-timestamp', { call_id: callId, ...body }, guest.token);
      const first = (await stamp({ call_initiated_timestamp: true })).json().data;
      expect(first.call_initiated_timestamp).not.toBeNull();
      expect(first.guest_exit_timestamp).toBeNull();
      const second = (
        await stamp({ call_initiated_timestamp: true, guest_exit_timestamp: true })
      ).json().data;
      expect(second.call_initiated_timestamp).toBe(first.call_initiated_timestamp);
      expect(second.guest_exit_timestamp).not.toBeNull();
    });

    it('takes a sendBeacon: POST, text/plain, the token in the body', async () => {
      const callId = newCallId(guest);
      await add(guest, { call_id: callId });
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/call-report/update-timestamp',
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
        payload: JSON.stringify({
          call_id: callId,
          guest_exit_timestamp: true,
          access_token: guest.token,
        }),
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().data.guest_exit_timestamp).not.toBeNull();
    });

    it('refuses no flag (400), malformed text (400), no or a bad token (401), another guest (403)', async () => {
      const callId = newCallId(guest);
      await add(guest, { call_id: callId });
      const put = (body: object, token?: string) =>
        send('PUT', 'call-report/update-timestamp', { call_id: callId, ...body }, token);
      expect((await put({ guest_exit_timestamp: false }, guest.token)).statusCode).toBe(400);
      const garbled = await t.app.inject({
        method: 'POST',
        url: '/api/call-report/update-timestamp',
        headers: { 'content-type': 'text/plain' },
        payload: 'call_id=1',
      });
      expect(garbled.statusCode).toBe(400);
      expect((await put({ guest_exit_timestamp: true })).statusCode).toBe(401);
      expect((await put({ guest_exit_timestamp: true, access_token: 'forged' })).statusCode).toBe(
        401,
      );
      expect((await put({ guest_exit_timestamp: true }, otherGuest.token)).statusCode).toBe(403);
    });
  });

  describe('POST /api/call-bug/by-guest', () => {
    const bug = (body: object, token: string) =>
      send(
        'POST',
        'call-bug/by-guest',
        {
          guest_log: ['createOffer failed'],
          guest_state: { call: {} },
          guest_client_info: { userAgent: 'test' },
          ...body,
        },
        token,
      );

    it('records the bug, tied to the report of the call when there is one', async () => {
      const callId = newCallId(guest);
      await add(guest, { call_id: callId });
      const response = await bug({ call_id: callId, guest_id: guest.username }, guest.token);
      expect(response.statusCode).toBe(201);
      const stored = await t.app.db
        .selectFrom('call_bugs')
        .selectAll()
        .where('id', '=', response.json().data.id)
        .executeTakeFirstOrThrow();
      expect(stored.call_report_id).not.toBeNull();
      expect(stored.guest_log).toEqual(['createOffer failed']);
      // A bug may come before its report exists (spec §8: report failures are only logged).
      expect((await bug({ call_id: newCallId(guest) }, guest.token)).statusCode).toBe(201);
    });

    it("refuses another guest's call or id (403) and agents (403)", async () => {
      expect((await bug({ call_id: newCallId(otherGuest) }, guest.token)).statusCode).toBe(403);
      expect(
        (await bug({ call_id: newCallId(guest), guest_id: otherGuest.username }, guest.token))
          .statusCode,
      ).toBe(403);
      expect((await bug({ call_id: newCallId(guest) }, agent)).statusCode).toBe(403);
    });

    it.each([
      [
        'a log longer than the 110-entry buffer (spec §9)',
        { guest_log: Array.from({ length: 111 }, () => 'x') },
        'guest_log',
      ],
      ['a state that is not an object', { guest_state: 'broken' }, 'guest_state'],
      ['no call id', { call_id: undefined }, 'call_id'],
    ])('refuses %s with 400 naming the field', async (_name, body, field) => {
      const response = await bug({ call_id: newCallId(guest), ...body }, guest.token);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toHaveProperty(field);
    });
  });
});
