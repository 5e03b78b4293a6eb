// The floors of the call-flow figures (issue 22): the least the same servers ask for the work
// each figure covers, done by bare clients in Node instead of the apps, one sample between each
// two of the apps' calls, so that both meet the machine as busy as it is at that moment.
import { findDemoLogin, SEEDED_COMPANY } from '@frontdesk/api/seed';
import {
  callRoomJid,
  createApiClient,
  formatPresenceStatus,
  ROUND_ROBIN_PEER,
  routes,
} from '@frontdesk/protocol';
import { checkedGuest, reportLiveCall } from '../../../e2e/support/console.ts';
import type { Browser } from 'playwright-core';
import type { BenchStack } from '../stack.ts';
import { XmppSession } from '../xmpp/client.ts';
import { nowMs } from './in-page.ts';
import { openJanusFloor } from './janus-floor.ts';

/**
 * The floors' calls go to another always-open company, served by its own agent (Ali), so that
 * they never show in Cy's queue, where the apps' calls are timed.
 */
const FLOOR_COMPANY = SEEDED_COMPANY.arabic;
/** Its first category (apps/api/src/db/seed.ts). */
const FLOOR_CATEGORY = 8;
const FLOOR_AGENT = 'ali@frontdesk.demo';

/**
 * Guest ready in queue, raw: the one REST round trip that puts a guest's call in the queue
 * (`POST /api/call-report/add`), then an XMPP session (WebSocket, SASL, bind) and the join of
 * the call's room with the waiting status, by the benchmark's bare client on the apps' path.
 */
export type QueueFloor = { ms: number; restMs: number; xmppOpenMs: number; joinMs: number };

export type Floors = {
  /**
   * One sample of both floors on one call: the queue floor, then (Ali claims it through the API,
   * both sides get their room access, untimed) the media floor: janus.js in two pages publishes
   * into the call's Janus room and subscribes to the other side (call/janus-floor.ts), timed
   * until each page's first decoded remote frame, guest's and agent's.
   */
  sample: () => Promise<{ queue: QueueFloor; media: { guestMs: number; agentMs: number } }>;
  close: () => Promise<void>;
};

export async function openFloors(browser: Browser, stack: BenchStack): Promise<Floors> {
  // The e2e suite's browserless guest (e2e/support/console.ts) reaches the API named here.
  process.env.FRONTDESK_URL = stack.url;
  const api = createApiClient(`${stack.url}/api`);
  const ali = findDemoLogin(FLOOR_AGENT);
  const login = await api(routes.staffLogin, {
    body: { email: ali.email, password: ali.password },
  });
  if (!('access_token' in login.data)) throw new Error(`${ali.email} must choose a password first`);
  const agent = { token: login.data.access_token, janusToken: login.data.janusToken };
  // One guest for every sample: guests register under a per-address limit the apps' guests
  // share, while one guest may make many calls.
  const guest = await checkedGuest(FLOOR_COMPANY, 'floor');
  const { data: config } = await api(routes.config);
  const janus = await openJanusFloor(browser, stack.url);
  /** The API's gate to the room's Janus server, the WebSocket the apps' media layer opens. */
  const janusGate = (server: string) => {
    const gate = new URL(config.janusWebsocketUrl, stack.url.replace(/^http/, 'ws'));
    gate.searchParams.set('server', server);
    return gate.toString();
  };
  const waiting = formatPresenceStatus({ state: 'OpenCall', peer: ROUND_ROBIN_PEER });

  const sample = async () => {
    const startedAt = nowMs();
    const call = await reportLiveCall(guest, FLOOR_COMPANY, FLOOR_CATEGORY);
    const reportedAt = nowMs();
    const [localpart = '', domain = ''] = call.services.xmpp.jid.split('@');
    const chat = await XmppSession.open(
      config.xmppWebsocketUrl,
      domain,
      localpart,
      call.services.xmpp.password,
    );
    try {
      const openedAt = nowMs();
      await chat.join(`${callRoomJid(call.callId, domain)}/${guest.login.jabberusername}`, waiting);
      const joinedAt = nowMs();
      const queue: QueueFloor = {
        ms: joinedAt - startedAt,
        restMs: reportedAt - startedAt,
        xmppOpenMs: openedAt - reportedAt,
        joinMs: joinedAt - openedAt,
      };
      const params = { callId: call.callId };
      await api(routes.claimCall, {
        token: agent.token,
        body: { guestUsername: guest.username, categoryId: FLOOR_CATEGORY },
      });
      const [guestRoom, agentRoom] = await Promise.all([
        api(routes.callRoom, { token: guest.login.access_token, params }),
        api(routes.callRoom, { token: agent.token, params }),
      ]);
      // Ended whatever happens: a call left live would stay in the agent's hands for the runs after.
      const [guestMs, agentMs] = await janus
        .run(janusGate(guestRoom.data.server), [
          { ...guestRoom.data, janusToken: call.services.janusToken },
          { ...agentRoom.data, janusToken: agent.janusToken },
        ])
        .finally(() =>
          api(routes.endCall, { token: agent.token, params, body: { reason: 'completed' } }),
        );
      return { queue, media: { guestMs, agentMs } };
    } finally {
      chat.close();
    }
  };
  return {
    sample,
    close: () => janus.close(),
  };
}
