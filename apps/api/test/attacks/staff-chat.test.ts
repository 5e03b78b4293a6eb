import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../helper.ts';
import { buildTestAppWithChat, type TestAppWithChat } from '../chat-server.ts';

/**
 * Attack: keeping the chat of a sign-in that has ended. A member of staff signs out, or is
 * deactivated, or its session runs out, while its console — or someone who copied its XMPP
 * login — stays connected to the XMPP server, which never asks an open session for its token
 * again. Through the API's REST routes and a real XMPP client against a real ejabberd.
 */
describe("attack: keeping a member of staff's chat after its sign-in ended", () => {
  let t: TestAppWithChat;

  beforeAll(async () => {
    t = await buildTestAppWithChat('staff-chat');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('signing out ends the chat at once, unless another sign-in of the member is live', async () => {
    const first = await t.signIn('bo@frontdesk.demo', 'web-first');
    const second = await t.signIn('bo@frontdesk.demo', 'web-second');
    const logout = (token: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) });

    expect((await logout(first.token)).statusCode).toBe(204);
    expect(second.chat.status).toBe('connected');
    expect(await t.connectedNow()).toContain(`staff-${first.staffId}`);

    expect((await logout(second.token)).statusCode).toBe(204);
    for (const ended of [first.ended, second.ended]) {
      expect(await ended).toMatchObject({ code: 'signed-out' });
    }
    expect(await t.connectedNow()).not.toContain(`staff-${first.staffId}`);
  });

  it('the sweep disconnects a deactivated member and one whose session ran out, and no one else', async () => {
    const deactivated = await t.signIn('ada@frontdesk.demo');
    const expired = await t.signIn('cy@frontdesk.demo');
    const colleague = await t.signIn('di@frontdesk.demo');
    await t.app.db
      .updateTable('staff')
      .set({ active: false })
      .where('id', '=', deactivated.staffId)
      .execute();
    await t.app.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('staff_id', '=', expired.staffId)
      .execute();

    const swept = await t.app.staffChats.sweep();
    expect(swept.sort()).toEqual([deactivated.staffId, expired.staffId].sort());
    expect(await deactivated.ended).toMatchObject({ code: 'signed-out' });
    expect(await expired.ended).toMatchObject({ code: 'signed-out' });
    expect(colleague.chat.status).toBe('connected');
    expect(await t.connectedNow()).toContain(`staff-${colleague.staffId}`);
  });
});
