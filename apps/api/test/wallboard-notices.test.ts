import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLS_CHANGED_NOTICE, DEFAULT_COMPANY_ID, TEAM_CHANGED_NOTICE } from '@frontdesk/protocol';
import { bearer, guestWithCall, markAnswered } from './helper.ts';
import { buildTestAppWithChat, type TestAppWithChat } from './chat-server.ts';

const SALES = 1;

/**
 * What pushes the admins' wallboards (issue 17, item 5): the XMPP server's notices from the API,
 * through a real ejabberd to the chat sessions the consoles hold.
 */
describe('the notices a wallboard follows', () => {
  let t: TestAppWithChat;

  beforeAll(async () => {
    t = await buildTestAppWithChat('wallboard');
  });
  afterAll(async () => {
    await t?.close();
  });

  const report = (token: string, status: 'available' | 'away') =>
    t.app.inject({
      method: 'PUT',
      url: '/api/staff/me/availability',
      body: { status },
      headers: bearer(token),
    });

  it('tells admins of availability changes and sign-ins and outs, and everyone of calls', async () => {
    const ann = await t.signIn('admin@frontdesk.demo');
    const ada = await t.signIn('ada@frontdesk.demo');
    const bo = await t.signIn('bo@frontdesk.demo');
    // Ada's and Bo's sign-ins are news to the admin (Ann's own went out before her chat was up).
    await expect
      .poll(() => ann.notices.filter((notice) => notice === TEAM_CHANGED_NOTICE).length)
      .toBeGreaterThanOrEqual(2);
    ann.notices.length = 0;

    expect((await report(bo.token, 'available')).statusCode).toBe(204);
    await expect.poll(() => ann.notices).toEqual([TEAM_CHANGED_NOTICE]);
    // The console repeats its report every minute: a repeat changes nothing, and says nothing.
    expect((await report(bo.token, 'available')).statusCode).toBe(204);
    expect((await report(bo.token, 'away')).statusCode).toBe(204);
    await expect.poll(() => ann.notices).toEqual([TEAM_CHANGED_NOTICE, TEAM_CHANGED_NOTICE]);

    // A call let through reaches the admin as it reaches the agents.
    await guestWithCall(t.app, DEFAULT_COMPANY_ID, SALES);
    await expect.poll(() => ann.notices.at(-1)).toBe(CALLS_CHANGED_NOTICE);
    await expect.poll(() => ada.notices).toContain(CALLS_CHANGED_NOTICE);
    expect(ada.notices).not.toContain(TEAM_CHANGED_NOTICE);
    expect(ann.notices).toEqual([TEAM_CHANGED_NOTICE, TEAM_CHANGED_NOTICE, CALLS_CHANGED_NOTICE]);

    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: bearer(bo.token),
    });
    expect(logout.statusCode).toBe(204);
    await expect.poll(() => ann.notices.at(-1)).toBe(TEAM_CHANGED_NOTICE);
  });

  it("tells admins, not agents, of an agent's hold and resume (the supervisor view shows it)", async () => {
    const ann = await t.signIn('admin@frontdesk.demo', 'supervisor');
    const ada = await t.signIn('ada@frontdesk.demo', 'supervisor');
    const { callId } = await guestWithCall(t.app, DEFAULT_COMPANY_ID, SALES);
    await markAnswered(t.app, callId);
    await expect.poll(() => ann.notices.at(-1)).toBe(CALLS_CHANGED_NOTICE);
    ann.notices.length = 0;
    ada.notices.length = 0;
    const hold = (onHold: boolean) =>
      t.app.inject({
        method: 'POST',
        url: `/api/calls/${callId}/hold`,
        body: { onHold },
        headers: bearer(ada.token),
      });
    expect((await hold(true)).statusCode).toBe(204);
    await expect.poll(() => ann.notices).toEqual([TEAM_CHANGED_NOTICE]);
    expect((await hold(false)).statusCode).toBe(204);
    await expect.poll(() => ann.notices).toEqual([TEAM_CHANGED_NOTICE, TEAM_CHANGED_NOTICE]);
    expect(ada.notices).not.toContain(TEAM_CHANGED_NOTICE);
  });
});
