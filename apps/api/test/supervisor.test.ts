import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, supervisorSchema, type Supervisor } from '@frontdesk/protocol';
import {
  answeredCall,
  buildTestApp,
  callApi,
  guestWithCall,
  loginStaff,
  staffIdOf,
  staffLogin,
  type TestApp,
} from './helper.ts';

const DEMO = 5;
const AROUND_THE_CLOCK = 12;
const SALES = 1;
const SUPPORT = 2;

describe('GET /api/reports/supervisor', () => {
  let t: TestApp;
  let adminToken: string;
  let adaToken: string;
  let answered: string;
  let waitingCall: string;

  const view = async (token: string): Promise<Supervisor> => {
    const response = await callApi(t.app, 'GET', 'reports/supervisor', undefined, token);
    expect(response.statusCode).toBe(200);
    return envelope(supervisorSchema).parse(response.json()).data;
  };

  beforeAll(async () => {
    t = await buildTestApp();
    [adminToken, adaToken] = await Promise.all([
      loginStaff(t.app, 'admin@frontdesk.demo'),
      loginStaff(t.app, 'ada@frontdesk.demo'),
    ]);
    expect(
      (await callApi(t.app, 'PUT', 'staff/me/availability', { status: 'busy' }, adaToken))
        .statusCode,
    ).toBe(204);
    // Ada is in a Sales call; a guest waits in Support; another company's guest waits too.
    answered = (await answeredCall(t.app, DEMO, SALES)).callId;
    waitingCall = (await guestWithCall(t.app, DEMO, SUPPORT)).callId;
    await guestWithCall(t.app, AROUND_THE_CLOCK, 10);
  });
  afterAll(() => t?.close());

  it('names who is in which call, since when, and the guests waiting', async () => {
    const data = await view(adminToken);
    const adaId = await staffIdOf(t.app, 'ada@frontdesk.demo');
    const ada = data.agents.find((agent) => agent.id === adaId);
    expect(ada?.state).toBe('inCall');
    expect(ada?.calls).toEqual([
      expect.objectContaining({
        callId: answered,
        categoryId: SALES,
        categoryName: 'Sales',
        onHold: false,
        heldSince: null,
      }),
    ]);
    expect(data.waiting.map((call) => [call.callId, call.categoryName])).toEqual([
      [waitingCall, 'Support'],
    ]);
    // Everyone else holds no call.
    expect(data.agents.filter((agent) => agent.calls.length > 0)).toHaveLength(1);
  });

  it('shows the hold its agent put the call on, until it is taken back', async () => {
    const hold = (onHold: boolean) =>
      callApi(t.app, 'POST', `calls/${answered}/hold`, { onHold }, adaToken);
    expect((await hold(true)).statusCode).toBe(204);
    const held = (await view(adminToken)).agents.flatMap((agent) => agent.calls);
    expect(held).toEqual([expect.objectContaining({ callId: answered, onHold: true })]);
    expect(held[0]?.heldSince).not.toBeNull();
    expect((await hold(false)).statusCode).toBe(204);
    const resumed = (await view(adminToken)).agents.flatMap((agent) => agent.calls);
    expect(resumed).toEqual([
      expect.objectContaining({ callId: answered, onHold: false, heldSince: null }),
    ]);
  });

  it('tells a signed-in member the categories and assignment groups they serve', async () => {
    const adaId = await staffIdOf(t.app, 'ada@frontdesk.demo');
    await t.app.db
      .insertInto('staff_categories')
      .values({ staff_id: adaId, category_id: SUPPORT })
      .onConflict((oc) => oc.doNothing())
      .execute();
    const { user } = await staffLogin(t.app, 'ada@frontdesk.demo');
    expect(user.categoryIds).toContain(SUPPORT);
    expect(user.assignmentGroupIds).toEqual(expect.any(Array));
  });
});
