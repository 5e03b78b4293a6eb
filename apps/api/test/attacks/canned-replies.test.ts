import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cannedReplyRoutes, cannedReplySchema, routeUrl } from '@frontdesk/protocol';
import { SEEDED_COMPANY } from '../../src/db/seed.ts';
import { bearer, buildTestApp, loginGuest, loginStaff, type TestApp } from '../helper.ts';

const COMPANY = SEEDED_COMPANY.demo;
const OTHER = SEEDED_COMPANY.aroundTheClock;

/**
 * Attack: a company's canned replies read or changed by anyone but its staff, or changed by
 * anyone but its admins — anonymous, a guest, another company's agent or admin (valid tokens of
 * another company), and the company's own agent, who reads them but changes nothing.
 */
describe('attack: canned replies of another company, or changed by an agent', () => {
  let t: TestApp;
  let replyId: number;
  const tokens: Record<string, string | null> = {};

  beforeAll(async () => {
    t = await buildTestApp();
    const admin = await loginStaff(t.app, 'admin@frontdesk.demo');
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/company/${COMPANY}/canned-replies`,
      headers: bearer(admin),
      body: { title: 'Refunds', shortcut: 'refund', text: 'Refunds take five days.' },
    });
    replyId = cannedReplySchema.parse(created.json().data).id;
    tokens.anonymous = null;
    tokens.guest = (await loginGuest(t.app, COMPANY)).token;
    tokens.agent = await loginStaff(t.app, 'ada@frontdesk.demo');
    tokens.otherAgent = await loginStaff(t.app, 'cy@frontdesk.demo');
    tokens.otherAdmin = await loginStaff(t.app, 'zoe@frontdesk.demo');
  });
  afterAll(() => t.close());

  const attempts = [
    { name: 'cannedReplies' },
    { name: 'createCannedReply', body: { title: 'Evil', shortcut: 'evil', text: 'Pay here' } },
    { name: 'updateCannedReply', replyId: true, body: { text: 'Send your card number' } },
    { name: 'deleteCannedReply', replyId: true },
  ] as const;

  const attempt = (which: (typeof attempts)[number], token: string | null) => {
    const route = cannedReplyRoutes[which.name];
    const params = { id: COMPANY, ...('replyId' in which ? { replyId } : {}) };
    return t.app.inject({
      method: route.method,
      url: `/api${routeUrl(route, params)}`,
      headers: token ? bearer(token) : {},
      ...('body' in which ? { body: which.body } : {}),
    });
  };
  const stored = () =>
    t.app.db.selectFrom('canned_replies').selectAll().where('company_id', '=', COMPANY).execute();

  it('covers every canned-reply route', () => {
    expect(attempts.map((a) => a.name).sort()).toEqual(Object.keys(cannedReplyRoutes).sort());
  });

  it.each(attempts)(
    '$name: refused to strangers, guests and other companies, nothing changes',
    async (which) => {
      const before = await stored();
      const refusals = [
        ['anonymous', 401, 'unauthenticated'],
        ['guest', 403, 'staff_only'],
        ['otherAgent', 403, which.name === 'cannedReplies' ? 'other_company' : 'admins_only'],
        ['otherAdmin', 403, 'other_company'],
      ] as const;
      for (const [who, status, code] of refusals) {
        const response = await attempt(which, tokens[who] ?? null);
        expect(response.statusCode, `${who}: ${response.body}`).toBe(status);
        expect(response.json().error.code, who).toBe(code);
        expect(response.body).not.toContain('Refunds take five days');
      }
      expect(await stored()).toEqual(before);
    },
  );

  it('lets the company’s agent read the replies but change none', async () => {
    const read = await attempt(attempts[0], tokens.agent ?? null);
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toEqual([expect.objectContaining({ shortcut: 'refund' })]);
    const before = await stored();
    for (const which of attempts.slice(1)) {
      const response = await attempt(which, tokens.agent ?? null);
      expect(response.statusCode, which.name).toBe(403);
      expect(response.json().error.code).toBe('admins_only');
    }
    expect(await stored()).toEqual(before);
  });

  it('keeps another company’s admin to its own replies: the id of this one is not found there', async () => {
    const response = await t.app.inject({
      method: 'DELETE',
      url: `/api/company/${OTHER}/canned-replies/${replyId}`,
      headers: bearer(tokens.otherAdmin ?? ''),
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('canned_reply_not_found');
    expect(await stored()).toHaveLength(1);
  });
});
