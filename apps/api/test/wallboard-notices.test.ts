import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatSession } from '@frontdesk/chat';
import {
  CALLS_CHANGED_NOTICE,
  DEFAULT_COMPANY_ID,
  TEAM_CHANGED_NOTICE,
  envelope,
  staffLoginSchema,
} from '@frontdesk/protocol';
import { startEjabberd, type RunningEjabberd } from '@frontdesk/infra';
import { DEMO_LOGINS } from '../src/db/seed.ts';
import { bearer, buildTestApp, guestWithCall, type TestApp } from './helper.ts';

const SALES = 1;

/**
 * What pushes the admins' wallboards (issue 17, item 5): the XMPP server's notices from the API,
 * through a real ejabberd to the chat sessions the consoles hold.
 */
describe('the notices a wallboard follows', () => {
  let dir: string;
  let xmpp: RunningEjabberd;
  let t: TestApp;
  const open: ChatSession[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'frontdesk-api-wallboard-'));
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

  /** Signs a demo member in through the API and connects its chat, recording its notices. */
  async function signedIn(email: string) {
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
      resource: 'web-test',
      log: () => undefined,
    });
    open.push(chat);
    const notices: string[] = [];
    chat.on('serverNotice', (body) => notices.push(body));
    await chat.connect();
    return { token: login.access_token, notices };
  }

  const report = (token: string, status: 'available' | 'away') =>
    t.app.inject({
      method: 'PUT',
      url: '/api/staff/me/availability',
      body: { status },
      headers: bearer(token),
    });

  it('tells admins of availability changes and sign-ins and outs, and everyone of calls', async () => {
    const ann = await signedIn('admin@frontdesk.demo');
    const ada = await signedIn('ada@frontdesk.demo');
    const bo = await signedIn('bo@frontdesk.demo');
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
});
