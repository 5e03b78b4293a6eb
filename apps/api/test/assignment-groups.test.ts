import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  callSummarySchema,
  envelope,
  staffAdminEntrySchema,
  type AgentAvailability,
  type AssignmentGroup,
} from '@frontdesk/protocol';
import { SEEDED_COMPANY } from '../src/db/seed.ts';
import { staffJabberUsername } from '../src/xmpp/addresses.ts';
import {
  bearer,
  buildTestApp,
  callApi,
  loginGuest,
  loginStaff,
  newCallId,
  staffIdOf,
  type TestApp,
} from './helper.ts';

/** Company 12: agents Cy and Di, admin Zoe; categories Sales (10), Support (11), Billing (12). */
const company: number = SEEDED_COMPANY.aroundTheClock;
const [SALES, SUPPORT] = [10, 11];
const SPANISH = { id: 'es', name: 'Spanish speakers' };
const ENTERPRISE = { id: 'enterprise', name: 'Enterprise customers' };

let t: TestApp;
let zoe: string;
let cy: string;
let di: string;
let ids: { cy: number; di: number };

beforeAll(async () => {
  // A turn longer than any test: each offer stays with the agent the rotation starts with.
  t = await buildTestApp({ ROUND_ROBIN_OFFER_MS: '600000' });
  [zoe, cy, di] = await Promise.all([
    loginStaff(t.app, 'zoe@frontdesk.demo'),
    loginStaff(t.app, 'cy@frontdesk.demo'),
    loginStaff(t.app, 'di@frontdesk.demo'),
  ]);
  ids = {
    cy: await staffIdOf(t.app, 'cy@frontdesk.demo'),
    di: await staffIdOf(t.app, 'di@frontdesk.demo'),
  };
});
afterAll(() => t.close());

/** `PATCH /api/company/:id` by `token` (default Zoe). */
const patchCompany = (body: object, token = zoe, id = company) =>
  t.app.inject({ method: 'PATCH', url: `/api/company/${id}`, body, headers: bearer(token) });

const useGroups = async (groups: AssignmentGroup[], assignments = true) => {
  const response = await patchCompany({ assignments, assignmentGroups: groups });
  expect(response.statusCode, response.body).toBe(200);
};

/** `PATCH /api/company/:id/staff/:staffId` by `token` (default Zoe). */
const patchStaff = (staffId: number, body: object, token = zoe, id = company) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/company/${id}/staff/${staffId}`,
    body,
    headers: bearer(token),
  });

const setMemberGroups = async (staffId: number, assignmentGroupIds: string[]) => {
  const response = await patchStaff(staffId, { assignmentGroupIds });
  expect(response.statusCode, response.body).toBe(200);
  return envelope(staffAdminEntrySchema).parse(response.json()).data;
};

/** A new guest of `companyId` asks for a call with `extra` in the body. */
const addCall = async (categoryId: number, extra: object, companyId = company) => {
  const guest = await loginGuest(t.app, companyId);
  const callId = newCallId(guest);
  const response = await callApi(
    t.app,
    'POST',
    'call-report/add',
    { call_id: callId, company: companyId, source: 'site', category_id: categoryId, ...extra },
    guest.token,
  );
  return { guest, callId, response };
};

const waitingCall = async (categoryId: number, assignmentGroup?: string) => {
  const added = await addCall(categoryId, assignmentGroup ? { assignmentGroup } : {});
  expect(added.response.statusCode, added.response.body).toBe(201);
  return added;
};

/** The waiting call as Cy's console lists it. */
const listed = async (callId: string) => {
  const response = await callApi(t.app, 'GET', 'calls?status=waiting', undefined, cy);
  expect(response.statusCode).toBe(200);
  const call = envelope(callSummarySchema.array())
    .parse(response.json())
    .data.find((c) => c.callId === callId);
  if (!call) throw new Error(`${callId} is not listed`);
  return call;
};

const storedGroup = async (callId: string) =>
  (
    await t.app.db
      .selectFrom('call_reports')
      .select('assignment_group')
      .where('call_id', '=', callId)
      .executeTakeFirstOrThrow()
  ).assignment_group;

const report = (token: string, status: AgentAvailability) =>
  callApi(t.app, 'PUT', 'staff/me/availability', { status }, token);

beforeEach(async () => {
  await useGroups([SPANISH, ENTERPRISE]);
  await Promise.all([setMemberGroups(ids.cy, []), setMemberGroups(ids.di, [])]);
  await sql`update staff set availability = 'away', availability_at = null`.execute(t.app.db);
  await sql`update call_reports set ended_at = now(), end_reason = 'abandoned' where ended_at is null`.execute(
    t.app.db,
  );
});

describe('POST /api/call-report/add with an assignment group', () => {
  it('records the group the guest picked, and the console names it', async () => {
    const { callId } = await waitingCall(SALES, SPANISH.id);
    expect(await storedGroup(callId)).toBe(SPANISH.id);
    expect((await listed(callId)).assignmentGroup).toEqual(SPANISH);
  });

  it('requires a group while the company uses them (400 naming assignmentGroup)', async () => {
    const { response } = await addCall(SALES, {});
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('assignment_group_required');
    expect(response.json().error.fields).toHaveProperty('assignmentGroup');
  });

  it('refuses a group the company does not list, or any group when it uses none', async () => {
    const unknown = await addCall(SALES, { assignmentGroup: 'vip' });
    expect(unknown.response.statusCode).toBe(400);
    expect(unknown.response.json().error.fields).toHaveProperty('assignmentGroup');
    const malformed = await addCall(SALES, { assignmentGroup: '' });
    expect(malformed.response.statusCode).toBe(400);
    expect(malformed.response.json().error.fields).toHaveProperty('assignmentGroup');

    // Company 5 does not use assignments: a group is refused, none is fine.
    const demo = SEEDED_COMPANY.demo;
    const refused = await addCall(1, { assignmentGroup: SPANISH.id }, demo);
    expect(refused.response.statusCode).toBe(400);
    expect(refused.response.json().error.fields).toHaveProperty('assignmentGroup');
    expect((await addCall(1, {}, demo)).response.statusCode).toBe(201);
  });

  it('takes calls without a group from a company that uses assignments but lists no group', async () => {
    await useGroups([]);
    const { callId } = await waitingCall(SALES);
    expect(await storedGroup(callId)).toBeNull();
    expect((await listed(callId)).assignmentGroup).toBeNull();
  });

  it('keeps the group when the call moves on (hold, transfer)', async () => {
    const { guest, callId } = await waitingCall(SALES, ENTERPRISE.id);
    const next = newCallId(guest);
    const moved = await callApi(
      t.app,
      'POST',
      'call-report/hold-call',
      { origin_call_id: callId, current_call_id: callId, new_call_id: next, category_id: SUPPORT },
      guest.token,
    );
    expect(moved.statusCode, moved.body).toBe(201);
    expect(await storedGroup(next)).toBe(ENTERPRISE.id);
  });
});

describe("round robin offers a group's calls to its members first", () => {
  beforeEach(async () => {
    await Promise.all([report(cy, 'available'), report(di, 'available')]);
    // Di speaks Spanish; Cy serves Support.
    await setMemberGroups(ids.di, [SPANISH.id]);
    const served = await patchStaff(ids.cy, { categoryIds: [SUPPORT] });
    expect(served.statusCode, served.body).toBe(200);
  });
  const offeredTo = async (callId: string) =>
    (await listed(callId)).offer?.agentJabberUsername ?? null;

  it("offers to the group's available members, before the category's own agents", async () => {
    for (const categoryId of [SALES, SUPPORT, SALES]) {
      const { callId } = await waitingCall(categoryId, SPANISH.id);
      expect(await offeredTo(callId)).toBe(staffJabberUsername(ids.di));
    }
  });

  it('prefers the members who also serve the category', async () => {
    await setMemberGroups(ids.cy, [SPANISH.id]);
    for (let i = 0; i < 2; i += 1) {
      const { callId } = await waitingCall(SUPPORT, SPANISH.id);
      expect(await offeredTo(callId)).toBe(staffJabberUsername(ids.cy));
    }
  });

  it('falls back to the category rule when no member is available', async () => {
    // Nobody is in Enterprise: Support's own agent.
    const enterprise = await waitingCall(SUPPORT, ENTERPRISE.id);
    expect(await offeredTo(enterprise.callId)).toBe(staffJabberUsername(ids.cy));
    // Di is away: Sales names nobody, so whoever is available.
    await report(di, 'away');
    const spanish = await waitingCall(SALES, SPANISH.id);
    expect(await offeredTo(spanish.callId)).toBe(staffJabberUsername(ids.cy));
  });

  it('stops favouring the group when the company stops using assignments or removes it', async () => {
    const { callId } = await waitingCall(SUPPORT, SPANISH.id);
    expect(await offeredTo(callId)).toBe(staffJabberUsername(ids.di));

    await useGroups([SPANISH, ENTERPRISE], false);
    expect(await offeredTo(callId)).toBe(staffJabberUsername(ids.cy));
    expect((await listed(callId)).assignmentGroup).toEqual(SPANISH);

    await useGroups([ENTERPRISE]);
    expect(await offeredTo(callId)).toBe(staffJabberUsername(ids.cy));
    // The call still says what the guest picked; the company no longer names it.
    expect((await listed(callId)).assignmentGroup).toEqual({ id: SPANISH.id, name: null });
  });
});

describe('PATCH /api/company/:id/staff/:staffId with assignmentGroupIds', () => {
  const membersOf = async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/company/${company}/staff`,
      headers: bearer(zoe),
    });
    const staff = envelope(staffAdminEntrySchema.array()).parse(response.json()).data;
    return Object.fromEntries(staff.map((member) => [member.id, member.assignmentGroupIds]));
  };

  it("sets the member's groups, in the company's order, audited", async () => {
    const member = await setMemberGroups(ids.di, [ENTERPRISE.id, SPANISH.id]);
    expect(member.assignmentGroupIds).toEqual([SPANISH.id, ENTERPRISE.id]);
    expect((await membersOf())[ids.di]).toEqual([SPANISH.id, ENTERPRISE.id]);
    const audit = await t.app.db
      .selectFrom('audit_entries')
      .select(['action', 'target', 'before', 'after'])
      .where('company_id', '=', company)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    expect(audit).toEqual({
      action: 'staff.update',
      target: `staff ${ids.di}`,
      before: { assignmentGroupIds: [] },
      after: { assignmentGroupIds: [SPANISH.id, ENTERPRISE.id] },
    });

    expect((await setMemberGroups(ids.di, [])).assignmentGroupIds).toEqual([]);
  });

  it('refuses a group the company does not list, or one named twice (400 naming the field)', async () => {
    for (const assignmentGroupIds of [['vip'], [SPANISH.id, SPANISH.id], [''], 'es']) {
      const response = await patchStaff(ids.di, { assignmentGroupIds });
      expect(response.statusCode, JSON.stringify(assignmentGroupIds)).toBe(400);
      // The field, or one of its items (`assignmentGroupIds.0`).
      expect(Object.keys(response.json().error.fields)).toEqual([
        expect.stringMatching(/^assignmentGroupIds(\.\d+)?$/),
      ]);
    }
    expect((await membersOf())[ids.di]).toEqual([]);
  });

  it('ignores the memberships of a removed group, and finds them again when it comes back', async () => {
    await setMemberGroups(ids.di, [SPANISH.id, ENTERPRISE.id]);
    await useGroups([ENTERPRISE]);
    expect((await membersOf())[ids.di]).toEqual([ENTERPRISE.id]);
    const removed = await patchStaff(ids.di, { assignmentGroupIds: [SPANISH.id] });
    expect(removed.statusCode).toBe(400);

    // An Undo of the settings' save puts the group back with its members.
    await useGroups([SPANISH, ENTERPRISE]);
    expect((await membersOf())[ids.di]).toEqual([SPANISH.id, ENTERPRISE.id]);
  });

  it("refuses agents, another company's admins and anonymous callers", async () => {
    const ann = await loginStaff(t.app, 'admin@frontdesk.demo');
    const body = { assignmentGroupIds: [SPANISH.id] };
    expect((await patchStaff(ids.di, body, cy)).statusCode).toBe(403);
    expect((await patchStaff(ids.di, body, ann)).statusCode).toBe(403);
    // Through her own company's path, company 12's member is nobody she knows.
    expect((await patchStaff(ids.di, body, ann, SEEDED_COMPANY.demo)).statusCode).toBe(404);
    const anonymous = await t.app.inject({
      method: 'PATCH',
      url: `/api/company/${company}/staff/${ids.di}`,
      body,
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await membersOf())[ids.di]).toEqual([]);
  });
});
