import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatSession, type ChatError } from '@frontdesk/chat';
import { envelope, staffLoginSchema } from '@frontdesk/protocol';
import { startEjabberd, type RunningEjabberd } from '@frontdesk/infra';
import { DEMO_LOGINS } from '../../src/db/seed.ts';
import { bearer, buildTestApp, type TestApp } from '../helper.ts';

/**
 * Attack: keeping the chat of a sign-in that has ended. A member of staff signs out, or is
 * deactivated, or its session runs out, while its console — or someone who copied its XMPP
 * login — stays connected to the XMPP server, which never asks an open session for its token
 * again. Through the API's REST routes and a real XMPP client against a real ejabberd.
 */
describe("attack: keeping a member of staff's chat after its sign-in ended", () => {
  let dir: string;
  let xmpp: RunningEjabberd;
  let t: TestApp;
  const open: ChatSession[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'frontdesk-api-staff-chat-'));
    const jwtSecret = randomBytes(32);
    xmpp = await startEjabberd({ dir, jwtSecret });
    t = await buildTestApp({
      XMPP_ADMIN_URL: xmpp.adminApiUrl,
      XMPP_DOMAIN: xmpp.domain,
      XMPP_JWT_SECRET: Buffer.from(jwtSecret).toString('base64url'),
    });
  });
  afterAll(async () => {
    for (const session of open) session.close();
    await t?.close();
    await xmpp?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** Signs a demo member in through the API and connects its chat as the console does. */
  async function signedIn(email: string, resource = 'web-test') {
    const demo = DEMO_LOGINS.find((l) => l.email === email);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      body: { email, password: demo?.password },
    });
    const login = envelope(staffLoginSchema).parse(response.json()).data;
    const chat = new ChatSession({
      url: xmpp.wsUrl,
      jid: login.xmpp.jid,
      token: login.xmpp.password,
      sender: 'AGENT',
      resource,
      log: () => undefined,
    });
    open.push(chat);
    await chat.connect();
    const ended = new Promise<ChatError>((resolve) => chat.on('error', resolve));
    return { token: login.access_token, staffId: login.user.id, chat, ended };
  }

  const connectedNow = async () => {
    const response = await fetch(`${xmpp.adminApiUrl}/connected_users`, {
      method: 'POST',
      body: '{}',
    });
    return ((await response.json()) as string[]).map((jid) => jid.split('@')[0]);
  };

  it('signing out ends the chat at once, unless another sign-in of the member is live', async () => {
    const first = await signedIn('bo@frontdesk.demo', 'web-first');
    const second = await signedIn('bo@frontdesk.demo', 'web-second');
    const logout = (token: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) });

    expect((await logout(first.token)).statusCode).toBe(204);
    expect(second.chat.status).toBe('connected');
    expect(await connectedNow()).toContain(`staff-${first.staffId}`);

    expect((await logout(second.token)).statusCode).toBe(204);
    for (const ended of [first.ended, second.ended]) {
      expect(await ended).toMatchObject({ code: 'signed-out' });
    }
    expect(await connectedNow()).not.toContain(`staff-${first.staffId}`);
  });

  it('the sweep disconnects a deactivated member and one whose session ran out, and no one else', async () => {
    const deactivated = await signedIn('ada@frontdesk.demo');
    const expired = await signedIn('cy@frontdesk.demo');
    const colleague = await signedIn('di@frontdesk.demo');
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
    expect(await connectedNow()).toContain(`staff-${colleague.staffId}`);
  });
});
