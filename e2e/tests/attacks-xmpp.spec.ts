import { randomBytes } from 'node:crypto';
import { expect, test } from '../support/fixtures.ts';
import { ChatSession, type ChatEvents, type RoomSnapshot } from '@frontdesk/chat';
import { callRoomJid, routes } from '@frontdesk/protocol';
import { AGENT, api, guestWithLiveCall } from '../support/console.ts';
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
