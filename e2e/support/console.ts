import { randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Browser, type Page } from '@playwright/test';
import { ChatSession, type RoomSnapshot } from '@frontdesk/chat';
import { passCompanyChecks } from './company-checks.ts';
import { expectMovingVideo, walkToWaiting } from './guest.ts';
import {
  adminRoutes,
  callRoomJid,
  createApiClient,
  formatCallId,
  formatBrowserUsername,
  ROUND_ROBIN_PEER,
  routes,
  type ApiClient,
  type CompanyUpdateBody,
} from '@frontdesk/protocol';

/** The seeded staff (apps/api/src/db/seed.ts DEMO_LOGINS): Ada and Bo serve company 5, Cy 12. */
export const AGENT = {
  ada: 'ada@frontdesk.demo',
  bo: 'bo@frontdesk.demo',
  cy: 'cy@frontdesk.demo',
  di: 'di@frontdesk.demo',
  admin: 'admin@frontdesk.demo',
} as const;
const DEMO_PASSWORD = 'frontdesk-demo';

/**
 * Signs an agent in at /console/ (a demo login unless `password` says otherwise) and waits until
 * its chat is up and its rooms joined.
 */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/console/');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('workspace')).toHaveAttribute('data-chat', 'connected');
  await expect(page.getByText('Joining your team…')).toBeHidden();
}

/** An agent signed in at the console in a browser context of its own (close it with its context). */
export async function agentPage(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, email);
  return page;
}

/** The API's typed client from Node (packages/protocol's route table), at the suite's server. */
export const api: ApiClient = (route, ...options) =>
  createApiClient(`${process.env.FRONTDESK_URL}/api`)(route, ...options);

/**
 * Marks a member away from the API, as its console would: a console another journey closed
 * without signing out counts as available for a few minutes, and would be offered calls.
 */
export async function markAway(email: string) {
  const login = await api(routes.staffLogin, { body: { email, password: DEMO_PASSWORD } });
  if (!('access_token' in login.data)) throw new Error(`${email} must choose a password first`);
  const { access_token } = login.data;
  await api(routes.availability, { body: { status: 'away' }, token: access_token });
  await api(routes.logout, { token: access_token });
}

/** Changes a company's settings as its admin `email` would, through the admin API. */
export async function changeCompanySettings(
  email: string,
  companyId: number,
  body: CompanyUpdateBody,
) {
  const login = await api(routes.staffLogin, { body: { email, password: DEMO_PASSWORD } });
  if (!('access_token' in login.data)) throw new Error(`${email} must choose a password first`);
  const { access_token: token } = login.data;
  const { data: details } = await api(routes.company, { params: { id: String(companyId) } });
  await api(adminRoutes.updateCompany, {
    params: { id: String(companyId) },
    body,
    token,
    ifMatch: details.version,
  });
  await api(routes.logout, { token });
}

const token = () => randomBytes(8).toString('hex');

/**
 * A visitor without a browser, as the guest page leaves it before its call button: registered and
 * logged in at the API, the company's checks passed as the page would.
 */
export async function checkedGuest(companyId: number, name: string) {
  const registration = await api(routes.registerGuest, {
    body: { username: formatBrowserUsername(`${name}${token()}`, token()), companyId },
  });
  const login = await api(routes.guestLogin, {
    body: { credential: registration.data.credential, companyId },
  });
  const { username } = registration.data;
  await passCompanyChecks(api, companyId, { username, token: login.data.access_token });
  return { username, login: login.data };
}

export type CheckedGuest = Awaited<ReturnType<typeof checkedGuest>>;

/**
 * `guest` reports a call in `categoryId`, let through, so it holds the chat and media logins that
 * come with one.
 */
export async function reportLiveCall(guest: CheckedGuest, companyId: number, categoryId: number) {
  const callId = formatCallId(guest.username, token());
  const added = await api(routes.addCallReport, {
    body: {
      call_id: callId,
      company: companyId,
      source: 'site',
      category_id: categoryId,
      guest_username: guest.username,
    },
    token: guest.login.access_token,
  });
  const { services } = added.data;
  if (!services) throw new Error(`the call was not let through: ${added.data.status}`);
  return { ...guest, callId, services };
}

/** A visitor with a call of its own, without a browser ({@link checkedGuest}, then the call). */
export async function guestWithLiveCall(companyId: number, categoryId: number, name: string) {
  return reportLiveCall(await checkedGuest(companyId, name), companyId, categoryId);
}

/**
 * A guest who waits in a category without a browser, as docs/protocol.md step 2 has the guest
 * app do: registered and logged in at the API (or `guest`, already), a call report, and
 * `OpenCall|roundRobin` in the call's room through the chat adapter. What the agent's side
 * needs, and nothing it does not (no camera), so the journeys about claiming do not depend on the
 * guest app's screens.
 */
export async function waitingGuest(companyId: number, categoryId: number, guest?: CheckedGuest) {
  const { username, login, callId, services } = await reportLiveCall(
    guest ?? (await checkedGuest(companyId, 'e2e')),
    companyId,
    categoryId,
  );
  // decision 0010: the guest waits in its call's own room, which the API made for it.
  const room = callRoomJid(callId, services.xmpp.jid.split('@')[1] ?? '');
  const config = await api(routes.config);
  const chat = new ChatSession({
    url: config.data.xmppWebsocketUrl,
    jid: services.xmpp.jid,
    token: services.xmpp.password,
    sender: 'GUEST',
    log: () => undefined,
  });
  await chat.connect();
  const nick = login.jabberusername;
  await chat.joinRoom(room, {
    nick,
    status: { state: 'OpenCall', peer: ROUND_ROBIN_PEER },
  });
  return {
    nick,
    username,
    login,
    callId,
    services,
    chat,
    /** The room as the guest sees it, once `match` holds. */
    async roomWhen(match: (room: RoomSnapshot) => boolean): Promise<RoomSnapshot> {
      const now = chat.room(room);
      if (now && match(now)) return now;
      return new Promise((resolve) => {
        const off = chat.on('room', (snapshot) => {
          if (snapshot.jid === room && match(snapshot)) {
            off();
            resolve(snapshot);
          }
        });
      });
    },
    leave: () => chat.close(),
  };
}

/**
 * A video call of company 12 under way: the guest walks to the queue as `name`, Cy accepts it in
 * a console of its own, and the agent's picture moves on the guest's screen. Close the agent's
 * page with its context.
 */
export async function callInProgress(guest: Page, browser: Browser, name: string): Promise<Page> {
  const agent = await agentPage(browser, AGENT.cy);
  await videoCallAnsweredBy(agent, guest, name);
  return agent;
}

/**
 * The guest walks to company 12's video queue as `name`, the signed-in `agent` accepts it, and
 * the agent's picture moves on the guest's screen.
 */
export async function videoCallAnsweredBy(agent: Page, guest: Page, name: string) {
  await walkToWaiting(guest, { categoryTestId: 'category-12', callType: 'Video call', name });
  await agent
    .getByTestId('queue-guest')
    .filter({ hasText: name })
    .getByRole('button', { name: /^Accept/ })
    .click();
  await expect(guest.getByTestId('guest-page')).toHaveAttribute('data-stage', 'ongoing');
  await expectMovingVideo(guest, 'remote-video');
}

/** The agent in the call hands it on to `target`, an option of the transfer's list. */
export async function transferCall(agent: Page, target: string) {
  await agent.getByRole('button', { name: 'Transfer' }).click();
  await agent.getByRole('combobox', { name: 'Transfer the call' }).selectOption(target);
  await agent.getByRole('button', { name: 'Transfer', exact: true }).last().click();
}

/**
 * axe finds nothing at all on the console's page, of any impact — outside `options.exclude` (a
 * selector).
 */
export async function expectAxeClean(page: Page, options: { exclude?: string } = {}) {
  let builder = new AxeBuilder({ page });
  if (options.exclude) builder = builder.exclude(options.exclude);
  const { violations } = await builder.analyze();
  expect(
    violations.map(
      (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
    ),
  ).toEqual([]);
}

/** The page is no wider than its window: nothing makes it scroll sideways. */
export async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    document: document.documentElement.scrollWidth,
    window: document.documentElement.clientWidth,
  }));
  expect(widths.document).toBe(widths.window);
}
