import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guestDataRoutes, guestExportRoute, routeUrl } from '@frontdesk/protocol';
import { SEEDED_COMPANY } from '../../src/db/seed.ts';
import { ACCOUNT_LIMITS } from '../../src/plugins/rate-limits.ts';
import { bearer, buildTestApp, loginGuest, loginStaff, type TestApp } from '../helper.ts';

const COMPANY = SEEDED_COMPANY.demo;
const OTHER = SEEDED_COMPANY.aroundTheClock;

/**
 * Attack: a company's guests found, exported or erased by anyone but its admins — anonymous, a
 * guest (even asking about itself), the company's own agent, another company's agent or admin —
 * and an admin naming a guest of another company, through its own company's URL or the other's.
 */
describe('attack: a guest’s data found, exported or erased by anyone but its company’s admins', () => {
  let t: TestApp;
  let guestId: number;
  let otherGuestId: number;
  const tokens: Record<string, string | null> = {};

  const guestIdOf = async (username: string) =>
    (
      await t.app.db
        .selectFrom('guests')
        .select('id')
        .where('username', '=', username)
        .executeTakeFirstOrThrow()
    ).id;

  beforeAll(async () => {
    t = await buildTestApp();
    const guest = await loginGuest(t.app, COMPANY);
    guestId = await guestIdOf(guest.username);
    otherGuestId = await guestIdOf((await loginGuest(t.app, OTHER)).username);
    tokens.anonymous = null;
    tokens.guest = guest.token;
    tokens.agent = await loginStaff(t.app, 'ada@frontdesk.demo');
    tokens.otherAgent = await loginStaff(t.app, 'cy@frontdesk.demo');
    tokens.otherAdmin = await loginStaff(t.app, 'zoe@frontdesk.demo');
    tokens.admin = await loginStaff(t.app, 'admin@frontdesk.demo');
  });
  afterAll(() => t.close());

  type Attempt = { method: 'GET' | 'DELETE'; url: string };
  const search = (company: number): Attempt => ({
    method: 'GET',
    url: routeUrl(guestDataRoutes.findGuests, { id: company }, { answer: 'example' }),
  });
  /** The export and the erasure of one guest. */
  const ofGuest = (company: number, guest: number): Attempt[] => [
    {
      method: 'GET',
      url: routeUrl(guestExportRoute, { id: company, guestId: guest }),
    },
    {
      method: 'DELETE',
      url: routeUrl(guestDataRoutes.eraseGuest, { id: company, guestId: guest }),
    },
  ];
  const send = (request: Attempt, token: string | null) =>
    t.app.inject({
      method: request.method,
      url: `/api${request.url}`,
      headers: token ? bearer(token) : {},
    });
  const guestStillThere = async () =>
    t.app.db.selectFrom('guests').select('id').where('id', '=', guestId).executeTakeFirst();

  it.each([
    ['anonymous', 401],
    ['guest', 403],
    ['agent', 403],
    ['otherAgent', 403],
    ['otherAdmin', 403],
  ])('refuses %s (%i) on every route, and erases nothing', async (who, status) => {
    for (const request of [search(COMPANY), ...ofGuest(COMPANY, guestId)]) {
      const response = await send(request, tokens[who] ?? null);
      expect(response.statusCode, `${request.method} ${request.url}`).toBe(status);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
    }
    expect(await guestStillThere()).toEqual({ id: guestId });
  });

  it('answers 404 to an admin naming another company’s guest, through either company', async () => {
    for (const [token, company, guest] of [
      [tokens.admin, COMPANY, otherGuestId],
      [tokens.otherAdmin, OTHER, guestId],
    ] as const) {
      for (const request of ofGuest(company, guest)) {
        const response = await send(request, token ?? null);
        expect(response.statusCode, `${request.method} ${request.url}`).toBe(404);
        expect(response.json().error.code).toBe('guest_not_found');
      }
    }
    expect(await guestStillThere()).toEqual({ id: guestId });
    // The other company's search finds its own guest only, none of this company's.
    const found = await send(search(OTHER), tokens.otherAdmin ?? null);
    expect(found.statusCode).toBe(200);
    expect(found.json().data.map((g: { id: number }) => g.id)).toEqual([otherGuestId]);
  });
});

describe('attack: a company admin exporting guests at script speed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('answers 429 past the limit of one admin, and holds back no other admin', async () => {
    const { max } = ACCOUNT_LIMITS.guestExports;
    const exportBy = async (token: string, company: number) => {
      const guest = await loginGuest(t.app, company);
      const { id } = await t.app.db
        .selectFrom('guests')
        .select('id')
        .where('username', '=', guest.username)
        .executeTakeFirstOrThrow();
      return t.app.inject({
        method: 'GET',
        url: `/api${routeUrl(guestExportRoute, { id: company, guestId: id })}`,
        headers: bearer(token),
      });
    };
    const admin = await loginStaff(t.app, 'admin@frontdesk.demo');
    const statuses: number[] = [];
    for (let i = 0; i < max; i += 1) statuses.push((await exportBy(admin, COMPANY)).statusCode);
    expect(statuses).toEqual(Array.from({ length: max }, () => 200));
    const refused = await exportBy(admin, COMPANY);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('rate_limited');
    const otherAdmin = await loginStaff(t.app, 'zoe@frontdesk.demo');
    expect((await exportBy(otherAdmin, OTHER)).statusCode).toBe(200);
  });
});
