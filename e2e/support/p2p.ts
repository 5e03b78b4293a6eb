import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Browser, type Page } from '@playwright/test';
import { z } from 'zod';
import { mintJanusToken } from '@frontdesk/infra';
import { JanusRooms } from '@frontdesk/media/server';
import { adminRoutes, routes } from '@frontdesk/protocol';
import { api, signIn } from './console.ts';
import { queryRows } from './db.ts';
import { openGuest } from './guest.ts';
import { makeOperator } from './operator.ts';
import { recordPeerConnections, selectedPairs, type SelectedPair } from './turn.ts';

/** A member of staff of a company made for one journey, with the password they chose. */
export type Member = { id: number; email: string; password: string };

/** A company whose calls go straight between the browsers, and its two agents. */
export type P2pCompany = { id: number; agents: [Member, Member] };

/**
 * A member who holds a one-time password (an invite, a new company's admin) chooses their own,
 * as the console's first sign-in has them do; resolves with the session that signs them in.
 */
async function choosePassword(email: string, oneTimePassword: string) {
  const password = `p2p-${randomBytes(12).toString('hex')}`;
  const { data } = await api(adminRoutes.changePassword, {
    body: { email, currentPassword: oneTimePassword, newPassword: password },
  });
  return { password, token: data.access_token };
}

/**
 * A company of its own for the p2p journeys (issue 23), made the way an installation makes one:
 * the platform operator creates it, its admin chooses p2p calls without recording (a recorded
 * call always goes through the media server, decision 0045) and invites two agents. Its one
 * category and its queue belong to the journey alone, and no seeded company changes under another
 * journey.
 */
export async function createP2pCompany(): Promise<P2pCompany> {
  const suffix = randomBytes(3).toString('hex');
  const operator = await makeOperator(`p2p-operator-${suffix}@ops.example`);
  const { data: signedIn } = await api(adminRoutes.operatorLogin, {
    body: { email: operator.email, password: operator.password },
  });
  const { data: created } = await api(adminRoutes.createCompany, {
    body: { name: `Direct Line ${suffix}`, adminEmail: `admin-${suffix}@direct.example` },
    token: signedIn.token,
  });
  await api(adminRoutes.operatorLogout, { token: signedIn.token });
  const id = String(created.companyId);
  const admin = await choosePassword(created.adminEmail, created.oneTimePassword);
  await api(adminRoutes.updateCompany, {
    params: { id },
    body: { callMethod: 'p2p', recordCalls: false },
    token: admin.token,
  });
  const invite = async (name: string): Promise<Member> => {
    const { data } = await api(adminRoutes.inviteStaff, {
      params: { id },
      body: { email: `${name.toLowerCase()}-${suffix}@direct.example`, name, role: 'agent' },
      token: admin.token,
    });
    const { password, token } = await choosePassword(data.member.email, data.oneTimePassword);
    await api(routes.logout, { token });
    return { id: data.member.id, email: data.member.email, password };
  };
  const agents: [Member, Member] = [await invite('Pia'), await invite('Per')];
  await api(routes.logout, { token: admin.token });
  return { id: created.companyId, agents };
}

/** The URL of every WebSocket the page opens from now on. */
export function webSocketsOf(page: Page): string[] {
  const urls: string[] = [];
  page.on('websocket', (socket) => urls.push(socket.url()));
  return urls;
}

/**
 * A member signed in at the console in a browser context of its own that records its peer
 * connections ({@link selectedPairs}) and its WebSockets (close it with its context).
 */
export async function watchedAgentPage(browser: Browser, member: Member) {
  const context = await browser.newContext();
  await recordPeerConnections(context);
  const page = await context.newPage();
  const sockets = webSocketsOf(page);
  await signIn(page, member.email, member.password);
  return { page, sockets };
}

/** A guest of `companyId` (no welcome form, one category) starts a video call and waits. */
export async function waitForVideoCall(page: Page, companyId: number) {
  await openGuest(page, companyId, 'preview');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Video call').check();
  await page.getByRole('button', { name: 'Start the call' }).click();
  await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'waiting');
}

/**
 * The pages opened their chat's WebSocket (so the listener heard them) and none to the media
 * server's gate: Janus never saw the call.
 */
export async function expectNoMediaServerSocket(sockets: string[]) {
  const { data: config } = await api(routes.config);
  const path = (url: string) => new URL(url, process.env.FRONTDESK_URL).pathname;
  expect(sockets.map(path)).toContain(path(config.xmppWebsocketUrl));
  expect(sockets.map(path)).not.toContain(path(config.janusWebsocketUrl));
}

/**
 * The one peer connection each side has, and proof that it joins the two browsers: what the
 * guest's selected pair sends to is the very address and port the agent's pair receives on, and
 * the other way round (with both browsers and Janus on one machine, the address alone would not
 * tell the agent's browser from Janus).
 */
export async function expectDirectPair(guest: Page, agent: Page): Promise<SelectedPair> {
  const [guestPairs, agentPairs] = await Promise.all([selectedPairs(guest), selectedPairs(agent)]);
  expect(guestPairs).toHaveLength(1);
  expect(agentPairs).toHaveLength(1);
  const [guestPair, agentPair] = [guestPairs[0] as SelectedPair, agentPairs[0] as SelectedPair];
  const end = (c: SelectedPair['local']) => ({ address: c.address, port: c.port });
  expect(guestPair.state).toBe('succeeded');
  expect(guestPair.bytesSent * guestPair.bytesReceived).toBeGreaterThan(0);
  expect(end(guestPair.remote)).toEqual(end(agentPair.local));
  expect(end(agentPair.remote)).toEqual(end(guestPair.local));
  return guestPair;
}

/** The call of `companyId` answered last: the one under way (the journey's company has one). */
export async function liveCallId(companyId: number): Promise<string> {
  const [row] = await queryRows<{ call_id: string }>(
    `select call_id from call_reports where company_id = $1 and answered_at is not null
      order by id desc limit 1`,
    [companyId],
  );
  if (!row) throw new Error(`company ${companyId} has no answered call`);
  return row.call_id;
}

const stackSecretsSchema = z.object({ janusTokenSecret: z.string(), janusAdminKey: z.string() });

/**
 * Whether any of the stack's Janus servers (the API's registry) has a videoroom for the call,
 * asked as the API asks it, with the stack's own secrets.
 */
export async function janusHasRoom(callId: string): Promise<boolean> {
  const dataDir = process.env.FRONTDESK_DATA_DIR;
  if (!dataDir) throw new Error('FRONTDESK_DATA_DIR is unset: run through the e2e config');
  const secrets = stackSecretsSchema.parse(
    JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')),
  );
  const servers = await queryRows<{ http_url: string }>('select http_url from media_servers');
  expect(servers.length).toBeGreaterThan(0);
  const found = await Promise.all(
    servers.map(({ http_url }) =>
      new JanusRooms({
        httpUrl: http_url,
        adminKey: secrets.janusAdminKey,
        token: () => mintJanusToken(secrets.janusTokenSecret, 60),
      }).exists(callId),
    ),
  );
  return found.includes(true);
}
