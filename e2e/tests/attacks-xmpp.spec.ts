import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';
import { ChatSession, type ChatEvents, type RoomSnapshot } from '@frontdesk/chat';
import { callRoomJid, routes } from '@frontdesk/protocol';
import { AGENT, api, guestWithLiveCall, signIn } from '../support/console.ts';
import { COMPANY, walkToWaiting } from '../support/guest.ts';

/** Company 12's Sales (always open); company 13's one category (apps/api/src/db/seed.ts). */
const SALES = 10;
const VOICE_LINE_GENERAL = 14;

const sessions: ChatSession[] = [];

/** The next `event` of `session` for which `match` holds. */
function next<K extends keyof ChatEvents>(
  session: ChatSession,
  event: K,
  match: (payload: ChatEvents[K]) => boolean,
): Promise<ChatEvents[K]> {
  return new Promise((resolve) => {
    const off = session.on(event, (payload) => {
      if (!match(payload)) return;
      off();
      resolve(payload);
    });
  });
}

function roomWhere(chat: ChatSession, room: string, match: (r: RoomSnapshot) => boolean) {
  const now = chat.room(room);
  if (now && match(now)) return Promise.resolve(now);
  return next(chat, 'room', (snapshot) => snapshot.jid === room && match(snapshot));
}

/** A chat session over the page's own XMPP WebSocket, as a browser has it. */
async function connect(xmpp: { jid: string; password: string }) {
  const config = await api(routes.config);
  const chat = new ChatSession({
    url: config.data.xmppWebsocketUrl,
    jid: xmpp.jid,
    token: xmpp.password,
    sender: xmpp.jid.startsWith('staff-') ? 'AGENT' : 'GUEST',
    log: () => undefined,
    joinThrottleMs: 0,
  });
  sessions.push(chat);
  await chat.connect();
  return chat;
}

/** A visitor that registered and started a call of its own: so it holds a valid XMPP login. */
async function guestWithCall(companyId: number, categoryId: number) {
  const { username, login, callId, services } = await guestWithLiveCall(
    companyId,
    categoryId,
    'attack',
  );
  const chat = await connect(services.xmpp);
  const domain = services.xmpp.jid.split('@')[1] ?? '';
  return {
    username,
    token: login.access_token,
    callId,
    room: callRoomJid(callId, domain),
    chat,
  };
}

async function staffLogin(email: string) {
  const login = await api(routes.staffLogin, {
    body: {
      email,
      password: 'frontdesk-demo',
    },
  });
  // The demo logins' passwords are their own, never one-time (decision 0017).
  if (login.data.mustChangePassword) throw new Error(`${email} must choose a password first`);
  return {
    token: login.data.access_token,
    companyRoom: login.data.rooms[0]?.jid ?? '',
    domain: login.data.xmpp.jid.split('@')[1] ?? '',
    chat: await connect(login.data.xmpp),
  };
}

/**
 * Attack: reading or reaching other guests over XMPP (decision 0010). The attacker is a guest
 * with a call of its own, so it holds a valid XMPP login; it knows the victim's call id and
 * jabber username, the company room's address and the agents' nicks. It plays every move with a
 * real XMPP client over the page's WebSocket, and the XMPP server must refuse them.
 */
test.describe.serial('attack: other guests’ rooms, nicks, messages and presence over XMPP', () => {
  let victim: Awaited<ReturnType<typeof guestWithCall>>;
  let attacker: Awaited<ReturnType<typeof guestWithCall>>;
  let foreign: Awaited<ReturnType<typeof guestWithCall>>;
  let agent: Awaited<ReturnType<typeof staffLogin>>;

  test.beforeAll(async () => {
    agent = await staffLogin(AGENT.cy);
    victim = await guestWithCall(COMPANY.aroundTheClock, SALES);
    attacker = await guestWithCall(COMPANY.aroundTheClock, SALES);
    foreign = await guestWithCall(COMPANY.voiceLine, VOICE_LINE_GENERAL);
    await victim.chat.joinRoom(victim.room, {
      nick: victim.chat.username,
      status: { state: 'OpenCall', peer: 'roundRobin' },
    });
    await agent.chat.joinRoom(victim.room, { nick: agent.chat.username });
  });

  test.afterAll(async () => {
    await Promise.all(sessions.splice(0).map((session) => session.close()));
    // The other suites' agents of these companies find no call of this one waiting.
    for (const guest of [attacker, foreign]) {
      await api(routes.endCall, {
        params: { callId: guest.callId },
        body: { reason: 'abandoned' },
        token: guest.token,
      });
    }
  });

  test('the call room admits its guest and the company’s agents, and no other guest', async () => {
    const seen = await roomWhere(agent.chat, victim.room, (room) =>
      room.occupants.some((o) => o.nick === victim.chat.username),
    );
    expect(seen.occupants.find((o) => o.nick === victim.chat.username)?.status).toEqual({
      state: 'OpenCall',
      peer: 'roundRobin',
    });
    for (const outsider of [attacker, foreign]) {
      const refused = await outsider.chat
        .joinRoom(victim.room, { nick: outsider.chat.username })
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({ message: 'room-auth-failed: registration-required' });
    }
    const mine = await roomWhere(victim.chat, victim.room, (room) => room.occupants.length === 2);
    expect(mine.occupants.map((o) => o.nick).sort()).toEqual(
      [agent.chat.username, victim.chat.username].sort(),
    );
  });

  test('guests are kept out of the company’s room, and nobody makes a room', async () => {
    const companyRoom = await attacker.chat
      .joinRoom(agent.companyRoom, { nick: attacker.chat.username })
      .catch((error: unknown) => error);
    expect(companyRoom).toMatchObject({ code: 'room-auth-failed' });
    const domain = attacker.room.split('@')[1] ?? '';
    const made = await attacker.chat
      .joinRoom(`lobby-${randomBytes(4).toString('hex')}@${domain}`, {
        nick: attacker.chat.username,
      })
      .catch((error: unknown) => error);
    expect(made).toMatchObject({ message: 'room-auth-failed: forbidden' });
  });

  test('an agent’s nick is refused to a guest, even in the guest’s own room', async () => {
    const squatted = await attacker.chat
      .joinRoom(attacker.room, { nick: agent.chat.username })
      .catch((error: unknown) => error);
    expect(squatted).toMatchObject({ message: 'room-join-failed: conflict' });
    await attacker.chat.joinRoom(attacker.room, { nick: attacker.chat.username });
  });

  test('a guest cannot write to another guest, nor to an agent who has not taken its call', async () => {
    const heard: string[] = [];
    for (const chat of [victim.chat, agent.chat]) {
      chat.on('message', (record) => {
        if (record.direction === 'in') heard.push(String(record.payload.message));
      });
    }
    for (const [from, to] of [
      [attacker, victim.chat.username],
      [attacker, agent.chat.username],
      [foreign, agent.chat.username],
      [victim, agent.chat.username],
    ] as const) {
      const failed = next(from.chat, 'delivery', (d) => d.delivery === 'failed');
      const sent = from.chat.sendMessage(to, `hello from ${from.chat.username}`);
      expect(await failed).toEqual({ id: sent.id, delivery: 'failed' });
    }
    expect(heard).toEqual([]);
  });

  test('once an agent takes the call, its guest can write to it, and only its guest', async () => {
    await api(routes.claimCall, {
      body: { guestUsername: victim.username, categoryId: SALES },
      token: agent.token,
    });
    const atAgent = next(agent.chat, 'message', (record) => record.direction === 'in');
    victim.chat.sendMessage(agent.chat.username, 'I am the guest of this call');
    expect((await atAgent).payload).toMatchObject({
      from: victim.chat.username,
      message: 'I am the guest of this call',
    });
    const failed = next(attacker.chat, 'delivery', (d) => d.delivery === 'failed');
    const sent = attacker.chat.sendMessage(agent.chat.username, 'me too?');
    expect(await failed).toEqual({ id: sent.id, delivery: 'failed' });
  });

  test('the room goes when the call ends: its guest is told and cannot come back', async () => {
    const gone = roomWhere(victim.chat, victim.room, (room) => !room.joined);
    await api(routes.endCall, {
      params: { callId: victim.callId },
      body: { reason: 'completed' },
      token: agent.token,
    });
    await gone;
    const again = await victim.chat
      .joinRoom(victim.room, { nick: victim.chat.username })
      .catch((error: unknown) => error);
    expect(again).toMatchObject({ message: 'room-auth-failed: forbidden' });
  });
});

/**
 * Attack: an occupant of the guest's call room says it took the call (decision 0010). Every agent
 * of the company may be in the room, so one who did not take the call — or took another — can
 * publish `InCall` naming the guest. The guest page believes it only when the API says that very
 * agent answered the call; then it goes on to the call with the agent who did.
 */
test('the guest believes "I took your call" only from the agent the API names', async ({
  page,
}) => {
  const name = `Forged presence ${randomBytes(4).toString('hex')}`;
  await walkToWaiting(page, { categoryTestId: 'category-10', callType: 'Voice call', name });
  const [rogue, taker] = await Promise.all([staffLogin(AGENT.cy), staffLogin(AGENT.di)]);
  try {
    const waiting = await api(routes.listCalls, {
      query: { status: 'waiting', categoryId: '10' },
      token: taker.token,
    });
    const guestCall = waiting.data.find((c) => c.welcomeAnswers?.name === name);
    if (!guestCall) throw new Error('the guest’s call is not in the queue');
    const room = callRoomJid(guestCall.callId, taker.domain);
    const forged = {
      state: 'InCall' as const,
      peer: guestCall.guestJabberUsername,
      callId: guestCall.callId,
    };

    // What the guest's page answers in the room: it says InCall with the agent it believes.
    const guestBelieves = (chat: ChatSession) => {
      const guest = chat.room(room)?.occupants.find((o) => o.nick === forged.peer);
      return guest?.status?.state === 'InCall' ? guest.status.peer : null;
    };

    // Before anyone took the call: a forged "I took it" leaves the guest waiting for an agent.
    await rogue.chat.joinRoom(room, { nick: rogue.chat.username, status: forged });
    await roomWhere(rogue.chat, room, (r) => r.occupants.some((o) => o.nick === forged.peer));
    await page.waitForTimeout(4000);
    expect(guestBelieves(rogue.chat)).toBeNull();
    await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'waiting');

    // Di takes the call; Cy says again that it did: still not believed.
    await api(routes.claimCall, {
      body: { guestUsername: guestCall.guestUsername, categoryId: 10 },
      token: taker.token,
    });
    rogue.chat.setPresence(room, { ...forged, state: 'OpenCall' });
    rogue.chat.setPresence(room, forged);
    await page.waitForTimeout(4000);
    expect(guestBelieves(rogue.chat)).toBeNull();

    // The agent the API names is believed: the guest answers InCall with Di.
    await taker.chat.joinRoom(room, { nick: taker.chat.username, status: forged });
    await roomWhere(taker.chat, room, () => guestBelieves(taker.chat) === taker.chat.username);
  } finally {
    await Promise.all([rogue.chat, taker.chat].map((chat) => chat.close()));
  }
});

/** Counts the page's RTCPeerConnection constructions; an init script, so before its own code. */
function countPeerConnections() {
  let made = 0;
  window.RTCPeerConnection = new Proxy(window.RTCPeerConnection, {
    construct(target, args, newTarget) {
      made += 1;
      return Reflect.construct(target, args, newTarget) as RTCPeerConnection;
    },
  });
  Object.defineProperty(window, 'peerConnectionsMade', { get: () => made });
}

const peerConnectionsMade = (page: Page) =>
  page.evaluate(() => (window as Window & { peerConnectionsMade?: number }).peerConnectionsMade);

/** The full JID the page's chat session is bound to, read off its XMPP stream. */
function boundJid(page: Page): Promise<string> {
  return new Promise((resolve) => {
    page.on('websocket', (socket) =>
      socket.on('framereceived', ({ payload }) => {
        const jid = /<jid>([^<]+)<\/jid>/.exec(String(payload))?.[1];
        if (jid) resolve(jid);
      }),
    );
  });
}

/**
 * The stranger's own client, in a page at the site (whose policy lets it reach the chat server):
 * a bare XMPP-over-WebSocket session (RFC 7395) that signs in as `jid`, sends each IQ and answers
 * the stanza of the same id for each. Not StanzaJS: an attacker writes what it likes.
 */
function strangerAsks(
  page: Page,
  session: { url: string; jid: string; password: string },
  iqs: { id: string; stanza: string }[],
): Promise<string[]> {
  return page.evaluate(
    async ({ url, jid, password, iqs }) => {
      const [local = '', domain = ''] = jid.split('@');
      const socket = new WebSocket(url, 'xmpp');
      const inbox: string[] = [];
      const waiting: { match: (s: string) => boolean; take: (s: string) => void }[] = [];
      socket.onmessage = ({ data }) => {
        const stanza = String(data);
        const waiter = waiting.findIndex(({ match }) => match(stanza));
        if (waiter >= 0) waiting.splice(waiter, 1)[0]?.take(stanza);
        else inbox.push(stanza);
      };
      const next = (match: (s: string) => boolean) =>
        new Promise<string>((take) => {
          const kept = inbox.findIndex(match);
          if (kept >= 0) take(inbox.splice(kept, 1)[0] ?? '');
          else waiting.push({ match, take });
        });
      const answerTo = (id: string) => (s: string) =>
        s.startsWith('<iq') && new RegExp(`\\sid=(['"])${id}\\1`).test(s);
      await new Promise((opened, failed) => {
        socket.onopen = opened;
        socket.onerror = failed;
      });
      const open = `<open xmlns='urn:ietf:params:xml:ns:xmpp-framing' to='${domain}' version='1.0'/>`;
      const features = () => next((s) => s.startsWith('<stream:features'));
      socket.send(open);
      await features();
      socket.send(
        `<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>${btoa(`\0${local}\0${password}`)}</auth>`,
      );
      if (!(await next((s) => /^<(success|failure)/.test(s))).startsWith('<success'))
        throw new Error('the stranger could not sign in');
      socket.send(open);
      await features();
      const bound = next(answerTo('bind'));
      socket.send(`<iq type='set' id='bind'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/></iq>`);
      await bound;
      const answers: string[] = [];
      for (const { id, stanza } of iqs) {
        const answer = next(answerTo(id));
        socket.send(stanza);
        answers.push(await answer);
      }
      socket.close();
      return answers;
    },
    { ...session, iqs },
  );
}

/** The `type` of an IQ answer. */
const typeOf = (stanza: string) => /^<iq\b[^>]*\stype=(['"])(\w+)\1/.exec(stanza)?.[2];

/**
 * Attack: a stranger starts Jingle sessions with an agent's console and a guest's page
 * (packages/chat/src/connection.ts). ejabberd routes IQs between any two users whatever their
 * rosters, and StanzaJS's Jingle plugin would keep a session, with a new RTCPeerConnection, for
 * every session-initiate offering audio. The attacker, a guest of its own call knowing each
 * session's full JID, gets service-unavailable, and neither page makes a peer connection.
 */
test('a stranger’s Jingle session-initiate is refused by the console and the guest page', async ({
  page: guest,
  browser,
}) => {
  test.setTimeout(120_000);
  const [agentContext, strangerContext] = await Promise.all([
    browser.newContext(),
    browser.newContext(),
  ]);
  const stranger = await guestWithLiveCall(COMPANY.aroundTheClock, SALES, 'jingle');
  try {
    await agentContext.addInitScript(countPeerConnections);
    await guest.addInitScript(countPeerConnections);
    const agent = await agentContext.newPage();
    const agentJid = boundJid(agent);
    await signIn(agent, AGENT.cy);
    const guestJid = boundJid(guest);
    await walkToWaiting(guest, {
      categoryTestId: 'category-10',
      callType: 'Voice call',
      name: `Jingle target ${randomBytes(4).toString('hex')}`,
    });

    const config = await api(routes.config);
    const strangerPage = await strangerContext.newPage();
    await strangerPage.goto(`/?company=${COMPANY.aroundTheClock}`);
    const session = { url: config.data.xmppWebsocketUrl, ...stranger.services.xmpp };
    const sids = ['uninvited-1', 'uninvited-2', 'uninvited-3'];
    for (const [page, to] of [
      [agent, await agentJid],
      [guest, await guestJid],
    ] as const) {
      const before = await peerConnectionsMade(page);
      expect(before).toBeDefined();
      const [pong, ...refusals] = await strangerAsks(strangerPage, session, [
        // The page's session itself answers the stranger, so the refusals after are its own.
        {
          id: 'ping',
          stanza: `<iq type='get' id='ping' to='${to}'><ping xmlns='urn:xmpp:ping'/></iq>`,
        },
        ...sids.map((sid) => ({
          id: sid,
          stanza: `<iq type='set' id='${sid}' to='${to}'><jingle xmlns='urn:xmpp:jingle:1' action='session-initiate' sid='${sid}'><content creator='initiator' name='audio' senders='both'><description xmlns='urn:xmpp:jingle:apps:rtp:1' media='audio'><payload-type id='111' name='opus' clockrate='48000' channels='2'/></description><transport xmlns='urn:xmpp:jingle:transports:ice-udp:1' ufrag='uninvited' pwd='uninvitedpasswordpassword'/></content></jingle></iq>`,
        })),
      ]);
      expect(typeOf(pong ?? '')).toBe('result');
      // StanzaJS makes a session's peer connection before answering its IQ: the count is final.
      expect(await peerConnectionsMade(page)).toBe(before);
      expect(refusals).toHaveLength(sids.length);
      for (const refused of refusals) {
        expect(typeOf(refused)).toBe('error');
        expect(refused).toContain('<service-unavailable');
      }
    }
  } finally {
    await Promise.all(
      browser
        .contexts()
        .filter((c) => c !== guest.context())
        .map((c) => c.close()),
    );
    await api(routes.endCall, {
      params: { callId: stranger.callId },
      body: { reason: 'abandoned' },
      token: stranger.login.access_token,
    });
  }
});
