import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'stanza';
import { formatCallId, type ChatFile } from '@frontdesk/protocol';
import {
  agentQueue,
  ChatError,
  chatOpened,
  emptyConversation,
  messageAdded,
  type ChatMessageRecord,
  type ChatSession,
  type Conversation,
} from '../src/index.ts';
import {
  allowMessagesFrom,
  connectedUsers,
  disconnectUser,
  ensureCallRoom,
  ensureRoom,
  newRoomPassword,
  notifyUsers,
} from '../src/server/rooms.ts';
import {
  mintToken,
  nextEvent,
  roomWhere,
  sessionOf,
  startTestXmpp,
  type TestXmpp,
} from './helpers.ts';

let test: TestXmpp;
const passwords = { globex: newRoomPassword() };
let acmeSales: string;
let globexRoom: string;
const open: ChatSession[] = [];

/** A connected session; closed after the test. */
async function connected(username: string, options?: Parameters<typeof sessionOf>[2]) {
  const session = await sessionOf(test, username, options);
  open.push(session);
  await session.connect();
  return session;
}

/** A plain StanzaJS client of `username` with a resource of its own, its session started. */
async function rawClient(username: string, resource: string) {
  const jid = `${username}@${test.xmpp.domain}`;
  const client = createClient({
    jid,
    password: await mintToken(test.jwtSecret, jid),
    resource,
    transports: { websocket: test.xmpp.wsUrl, bosh: false },
  });
  client.sasl.disable('X-OAUTH2');
  const up = new Promise((resolve) => client.once('session:started', resolve));
  void client.connect();
  await up;
  return client;
}

const guestName = (n: number) => `g1-guest${n}xyz_suffix${n}abc-00000000${n}a`;
/** A public guest username per `n` (decision 0006: `g` and 25 base32 letters). */
const usernameOf = (n: number) =>
  `g${'q'.repeat(23)}${String.fromCharCode(97 + Math.floor(n / 26))}${String.fromCharCode(97 + (n % 26))}`;
const callIdOf = (n: number) => formatCallId(usernameOf(n), `c${n}`);

beforeAll(async () => {
  test = await startTestXmpp();
  const jidOf = (username: string) => `${username}@${test.xmpp.domain}`;
  const guests = Array.from({ length: 20 }, (_, n) => jidOf(guestName(n)));
  const agents = Array.from({ length: 12 }, (_, n) => jidOf(`staff-${n}`));
  // A call's room: members only, as the API makes it (decision 0010).
  await ensureCallRoom(test.admin, {
    name: 'acme-sales',
    title: 'Acme: sales',
    members: [...guests, ...agents],
  });
  // A company's room: members only and behind its password; guest 4 is no member.
  await ensureRoom(test.admin, {
    name: 'globex',
    title: 'Globex',
    password: passwords.globex,
    members: [...guests.filter((jid) => jid !== jidOf(guestName(4))), ...agents],
  });
  // mod_block_strangers: a guest writes only to an agent whose roster the API put it in.
  for (const [agent, guest] of [
    ['staff-9', 15],
    ['staff-4', 7],
    ['staff-5', 8],
    ['staff-6', 10],
    ['staff-0', 11],
  ] as const) {
    await allowMessagesFrom(test.admin, agent, guestName(guest));
  }
  acmeSales = `acme-sales@${test.xmpp.mucService}`;
  globexRoom = `globex@${test.xmpp.mucService}`;
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((session) => session.close()));
});

afterAll(async () => {
  await test?.stop();
});

describe('connecting', () => {
  it('starts a session: connected, the STUN server from XEP-0215 and no TURN credential', async () => {
    const guest = await connected(guestName(1));
    expect(guest.status).toBe('connected');
    // SECURITY (decision 0015): relay credentials come with a live call's room, not the chat.
    expect(guest.iceServers).toEqual([{ urls: 'stun:127.0.0.1:3478' }]);
  });

  it.each([
    ['signed with another key', async (jid: string) => mintToken(new Uint8Array(32).fill(7), jid)],
    [
      'expired',
      async (jid: string) => mintToken(test.jwtSecret, jid, Math.floor(Date.now() / 1000) - 60),
    ],
    ['for another user', async () => mintToken(test.jwtSecret, `staff-9@${test.xmpp.domain}`)],
  ])('refuses a token %s with a typed error', async (_, tokenFor) => {
    const jid = `${guestName(2)}@${test.xmpp.domain}`;
    const session = await sessionOf(test, guestName(2), { token: await tokenFor(jid) });
    open.push(session);
    const reported = nextEvent(session, 'error');
    const error = await session.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChatError);
    expect(error).toMatchObject({ code: 'auth-failed', userMessage: expect.any(String) });
    expect(await reported).toBe(error);
    expect(session.status).toBe('closed');
  });

  it('gives way to a newer session of the same user (one resource, spec §9)', async () => {
    const first = await connected('staff-2');
    const replaced = nextEvent(first, 'error');
    await connected('staff-2');
    expect(await replaced).toMatchObject({ code: 'replaced' });
    await nextEvent(first, 'status', (status) => status === 'closed');
  });

  it('ends every session of a user the server disconnects, for good (a signed-out agent)', async () => {
    const tabA = await connected('staff-11', { resource: 'web-a' });
    const tabB = await connected('staff-11', { resource: 'web-b' });
    expect(await connectedUsers(test.admin)).toContain('staff-11');
    const ended = [tabA, tabB].map((tab) => nextEvent(tab, 'error'));
    await disconnectUser(test.admin, 'staff-11');
    for (const error of await Promise.all(ended))
      expect(error).toMatchObject({ code: 'signed-out' });
    await Promise.all(
      [tabA, tabB].map((tab) => nextEvent(tab, 'status', (status) => status === 'closed')),
    );
    // Neither tab comes back by itself.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await connectedUsers(test.admin)).not.toContain('staff-11');
  });

  it('keeps sessions of one user with their own resources side by side, in sync', async () => {
    const guest = await connected(guestName(15));
    const tabA = await connected('staff-9', { resource: 'web-a' });
    const tabB = await connected('staff-9', { resource: 'web-b' });
    const errors: unknown[] = [];
    for (const tab of [tabA, tabB]) tab.on('error', (error) => errors.push(error));

    const copied = nextEvent(tabB, 'message');
    const atGuest = nextEvent(guest, 'message');
    const sent = tabA.sendMessage(guest.username, 'typed in tab A');
    // Carbons (XEP-0280): the other tab sees what this one sent, under the same id.
    expect(await copied).toMatchObject({
      id: sent.id,
      direction: 'out',
      payload: { from: tabA.username, to: guest.username, message: 'typed in tab A' },
    });
    await atGuest;

    const inA = nextEvent(tabA, 'message', (r) => r.direction === 'in');
    const inB = nextEvent(tabB, 'message', (r) => r.direction === 'in');
    guest.sendMessage(tabA.username, 'seen by both tabs');
    await Promise.all([inA, inB]);
    expect([tabA.status, tabB.status]).toEqual(['connected', 'connected']);
    expect(errors).toEqual([]);
  });
});

describe('rooms and presence', () => {
  it('shows each side the other presence (state|peer|callId), both ways', async () => {
    const guest = await connected(guestName(3));
    const agent = await connected('staff-1');
    await guest.joinRoom(acmeSales, {
      nick: guest.username,
      status: { state: 'OpenCall', peer: 'roundRobin' },
    });
    await agent.joinRoom(acmeSales, {
      nick: agent.username,
      status: { state: 'Away' },
    });

    const seenByAgent = await roomWhere(agent, acmeSales, (room) =>
      room.occupants.some((o) => o.nick === guest.username),
    );
    expect(seenByAgent.occupants.find((o) => o.nick === guest.username)).toMatchObject({
      status: { state: 'OpenCall', peer: 'roundRobin' },
      waitingSince: expect.any(String),
      self: false,
    });

    const callId = callIdOf(3);
    agent.setPresence(acmeSales, { state: 'InCall', peer: guest.username, callId });
    const seenByGuest = await roomWhere(guest, acmeSales, (room) =>
      room.occupants.some((o) => o.nick === agent.username && o.status?.state === 'InCall'),
    );
    expect(seenByGuest.occupants.find((o) => o.nick === agent.username)?.status).toEqual({
      state: 'InCall',
      peer: guest.username,
      callId,
    });

    guest.setPresence(acmeSales, { state: 'CallResumed', peer: agent.username, callId });
    await roomWhere(agent, acmeSales, (room) =>
      room.occupants.some((o) => o.nick === guest.username && o.status?.state === 'CallResumed'),
    );
  });

  it('shows every occupant’s availability (XMPP show) to the others, in every room', async () => {
    const agent = await connected('staff-10');
    const colleague = await connected('staff-11');
    for (const session of [agent, colleague]) {
      await session.joinRoom(acmeSales, { nick: session.username });
    }
    const showOf = (session: ChatSession, nick: string) =>
      session.room(acmeSales)?.occupants.find((o) => o.nick === nick)?.show;
    await roomWhere(colleague, acmeSales, (room) =>
      room.occupants.some((o) => o.nick === agent.username),
    );
    expect(showOf(colleague, agent.username)).toBeUndefined();

    agent.setAvailability('away');
    await roomWhere(colleague, acmeSales, () => showOf(colleague, agent.username) === 'away');
    colleague.setAvailability('dnd');
    await roomWhere(agent, acmeSales, () => showOf(agent, colleague.username) === 'dnd');

    // The show goes with the room presence: a new state keeps it, a room joined later gets it.
    agent.setPresence(acmeSales, { state: 'TestNode' });
    await roomWhere(colleague, acmeSales, (room) =>
      room.occupants.some(
        (o) => o.nick === agent.username && o.status?.state === 'TestNode' && o.show === 'away',
      ),
    );
    for (const session of [agent, colleague]) {
      await session.joinRoom(globexRoom, { nick: session.username, password: passwords.globex });
    }
    await roomWhere(colleague, globexRoom, (room) =>
      room.occupants.some((o) => o.nick === agent.username && o.show === 'away'),
    );

    agent.setAvailability('chat');
    await roomWhere(colleague, acmeSales, (room) =>
      room.occupants.some(
        (o) => o.nick === agent.username && o.show === 'chat' && o.status?.state === 'TestNode',
      ),
    );
    await roomWhere(colleague, globexRoom, (room) =>
      room.occupants.some((o) => o.nick === agent.username && o.show === 'chat'),
    );
  });

  it('lets no user make a node on the shared pubsub service (decision 0010: PEP only)', async () => {
    const jid = `${guestName(17)}@${test.xmpp.domain}`;
    const client = createClient({
      jid,
      password: await mintToken(test.jwtSecret, jid),
      resource: 'pubsub',
      transports: { websocket: test.xmpp.wsUrl, bosh: false },
    });
    client.sasl.disable('X-OAUTH2');
    const started = new Promise((resolve) => client.once('session:started', resolve));
    client.connect();
    await started;
    try {
      // A name another user would then own: refused, while the user's own PEP node is fine.
      const refused = await client
        .createNode(test.xmpp.pubsubService, 'presence:OpenCall')
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({ type: 'error' });
      await client.createNode(jid, 'presence:OpenCall');
    } finally {
      client.disconnect();
    }
  });

  it('records each published state on the user’s own state node', async () => {
    const agent = await connected('staff-3');
    await agent.joinRoom(acmeSales, { nick: agent.username });
    const recorded = nextEvent(agent, 'ownPresence', (status) => status.state === 'TestNode');
    agent.setPresence(acmeSales, { state: 'TestNode' });
    expect(await recorded).toEqual({ state: 'TestNode' });
  });

  it('keeps a guest out of a room it is no member of or lacks the password of, and counts the tries (spec §8)', async () => {
    const guest = await connected(guestName(4));
    const wrong = await guest
      .joinRoom(globexRoom, { nick: guest.username })
      .catch((e: unknown) => e);
    expect(wrong).toMatchObject({ code: 'room-auth-failed' });
    expect(guest.room(globexRoom)).toMatchObject({
      joined: false,
      auth: { status: false, tries: 1 },
    });

    // spec §9: within 5000 ms the leading join answers again; no second try is made.
    const throttled = await guest
      .joinRoom(globexRoom, { nick: guest.username, password: passwords.globex })
      .catch((e: unknown) => e);
    expect(throttled).toBe(wrong);
    expect(guest.room(globexRoom)?.auth.tries).toBe(1);

    const other = await connected(guestName(5), { joinThrottleMs: 0 });
    const none = await other
      .joinRoom(globexRoom, { nick: other.username })
      .catch((e: unknown) => e);
    expect(none).toMatchObject({ code: 'room-auth-failed' });
    const second = await other
      .joinRoom(globexRoom, { nick: other.username, password: 'not-the-password' })
      .catch((e: unknown) => e);
    expect(second).toBeInstanceOf(ChatError);
    expect(other.room(globexRoom)).toMatchObject({
      joined: false,
      auth: { status: false, tries: 2 },
    });
    // spec §5: the password is sent lowercased, so its case does not matter.
    const joined = await other.joinRoom(globexRoom, {
      nick: other.username,
      password: passwords.globex.toUpperCase(),
    });
    expect(joined).toMatchObject({ joined: true, auth: { status: true, tries: 2 } });
  });

  it('requires a nick (spec §8)', async () => {
    const guest = await connected(guestName(6));
    const error = await guest.joinRoom(acmeSales, { nick: '' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'nick-required', userMessage: expect.any(String) });
  });
});

describe('ending a call (spec §4)', () => {
  it('holds: stays in the room as CallOnHold with the agent, ends media, empty presence', async () => {
    const guest = await connected(guestName(14));
    const agent = await connected('staff-8');
    for (const session of [guest, agent]) {
      await session.joinRoom(acmeSales, { nick: session.username });
    }
    const ended: string[] = [];
    await guest.endCall(acmeSales, {
      endMedia: () => void ended.push('media'),
      hold: { agent: agent.username, callId: callIdOf(14) },
    });
    expect(ended).toEqual(['media']);
    const held = await roomWhere(agent, acmeSales, (room) =>
      room.occupants.some((o) => o.nick === guest.username && o.status?.state === 'CallOnHold'),
    );
    expect(held.occupants.find((o) => o.nick === guest.username)?.status).toEqual({
      state: 'CallOnHold',
      peer: agent.username,
      callId: callIdOf(14),
    });

    await guest.endCall(acmeSales, { endMedia: () => void ended.push('media') });
    expect(ended).toEqual(['media', 'media']);
    expect(guest.room(acmeSales)).toBeUndefined();
    await roomWhere(
      agent,
      acmeSales,
      (room) => !room.occupants.some((o) => o.nick === guest.username),
    );
  });
});

describe('messages', () => {
  it('exchange both ways, with delivery state and unread count', async () => {
    const guest = await connected(guestName(7));
    const agent = await connected('staff-4');
    let guestChat: Conversation = emptyConversation;
    guest.on('message', (record) => (guestChat = messageAdded(guestChat, record, false)));

    const delivered = nextEvent(guest, 'delivery', (d) => d.delivery === 'delivered');
    const atAgent = nextEvent(agent, 'message');
    const sent = guest.sendMessage(agent.username, 'Hello, can you hear me?');
    expect(sent).toMatchObject({ direction: 'out', delivery: 'sending' });
    expect(await atAgent).toMatchObject({
      id: sent.id,
      direction: 'in',
      payload: {
        sender: 'GUEST',
        from: guest.username,
        to: agent.username,
        message: 'Hello, can you hear me?',
      },
    });
    expect(await delivered).toEqual({ id: sent.id, delivery: 'delivered' });

    const atGuest = nextEvent(guest, 'message', (r) => r.direction === 'in');
    agent.sendMessage(guest.username, 'Yes, loud and clear.');
    expect((await atGuest).payload).toEqual({
      sender: 'AGENT',
      from: agent.username,
      to: guest.username,
      message: 'Yes, loud and clear.',
    });

    // Newest first; only the incoming one is unread while the panel is closed.
    expect(guestChat.chatMessages.map((r) => r.payload.message)).toEqual([
      'Yes, loud and clear.',
      'Hello, can you hear me?',
    ]);
    expect(guestChat.unreadMessages).toBe(1);
    expect(chatOpened(guestChat).unreadMessages).toBe(0);
  });

  it('carries a file message (URL, name, size, type) intact', async () => {
    const guest = await connected(guestName(8));
    const agent = await connected('staff-5');
    const file: ChatFile = {
      url: '/api/files/3f2a9c0b1d2e4f5a6b7c8d',
      name: 'invoice March.pdf',
      size: 48213,
      type: 'application/pdf',
    };
    const atAgent = nextEvent(agent, 'message');
    guest.sendMessage(agent.username, file);
    expect((await atAgent).payload.message).toEqual(file);

    expect(() =>
      guest.sendMessage(agent.username, { ...file, url: 'javascript:alert(1)' }),
    ).toThrow();
  });

  it('hears the server’s notices; a guest in no call with the agent cannot write to it', async () => {
    const agent = await connected('staff-11');
    const guest = await connected(guestName(16));
    const notices: string[] = [];
    agent.on('serverNotice', (body) => notices.push(body));
    const heard = nextEvent(agent, 'serverNotice');
    await notifyUsers(test.admin, [agent.jid], 'calls-changed');
    expect(await heard).toBe('calls-changed');
    // A guest that is in no call with this agent cannot write to it at all (decision 0010).
    const refused = nextEvent(guest, 'delivery', (d) => d.delivery === 'failed');
    const sent = guest.sendMessage(agent.username, 'pretend notice');
    expect(await refused).toEqual({ id: sent.id, delivery: 'failed' });
    expect(notices).toEqual(['calls-changed']);
  });

  it('marks a message to nobody as failed', async () => {
    const guest = await connected(guestName(9));
    const failed = nextEvent(guest, 'delivery', (d) => d.delivery === 'failed');
    const sent = guest.sendMessage('staff-404', 'anyone there?');
    expect(await failed).toEqual({ id: sent.id, delivery: 'failed' });
  });

  it('shows what the user sent from another device (carbons), and drops forged senders', async () => {
    const guest = await connected(guestName(10));
    const agent = await connected('staff-6');
    const phone = await rawClient(agent.username, 'phone');
    phone.sendPresence();
    try {
      const copied = nextEvent(agent, 'message');
      const atGuest = nextEvent(guest, 'message');
      phone.sendMessage({
        to: `${guest.username}@${test.xmpp.domain}`,
        type: 'chat',
        body: 'from my phone',
        json: {
          sender: 'AGENT',
          from: agent.username,
          to: guest.username,
          message: 'from my phone',
        },
      });
      expect(await copied).toMatchObject({
        direction: 'out',
        payload: { message: 'from my phone' },
      });
      await atGuest;

      // A payload naming someone else than the real sender is dropped.
      const forged = nextEvent(guest, 'message', () => true, 1500);
      phone.sendMessage({
        to: `${guest.username}@${test.xmpp.domain}`,
        type: 'chat',
        body: 'x',
        json: { sender: 'AGENT', from: 'staff-1', to: guest.username, message: 'x' },
      });
      await expect(forged).rejects.toThrow(/no matching/);
    } finally {
      phone.disconnect();
    }
  });
});

describe('typing, read state and times', () => {
  it('shows each side the other typing (XEP-0085) and the sender when its messages were read (XEP-0333)', async () => {
    const guest = await connected(guestName(11));
    const agent = await connected('staff-0');

    const typing = nextEvent(agent, 'chatState');
    guest.sendChatState(agent.username, 'composing');
    expect(await typing).toEqual({ from: guest.username, state: 'composing' });
    const paused = nextEvent(guest, 'chatState');
    agent.sendChatState(guest.username, 'paused');
    expect(await paused).toEqual({ from: agent.username, state: 'paused' });

    const received: ChatMessageRecord[] = [];
    guest.on('message', (record) => received.push(record));
    const delivered = nextEvent(agent, 'delivery', (d) => d.delivery === 'delivered');
    const first = agent.sendMessage(guest.username, 'First');
    expect(await delivered).toEqual({ id: first.id, delivery: 'delivered' });
    const arrived = nextEvent(guest, 'message', (r) => r.payload.message === 'Second');
    const second = agent.sendMessage(guest.username, 'Second');
    // The message itself says the typing is over.
    const over = nextEvent(guest, 'chatState');
    expect(await over).toEqual({ from: agent.username, state: 'active' });
    const record = await arrived;

    // One `displayed` for the newest covers the earlier one too, in order.
    const reads: string[] = [];
    agent.on('delivery', (d) => d.delivery === 'read' && reads.push(d.id));
    const bothRead = nextEvent(
      agent,
      'delivery',
      (d) => d.id === second.id && d.delivery === 'read',
    );
    guest.markDisplayed(record);
    expect(await bothRead).toEqual({ id: second.id, delivery: 'read' });
    expect(reads).toEqual([first.id, second.id]);
  });

  it('counts a read marker only from the user the message went to', async () => {
    const guest = await connected(guestName(12));
    const agent = await connected('staff-0');
    const other = await connected(guestName(13));
    const delivered = nextEvent(agent, 'delivery', (d) => d.delivery === 'delivered');
    const sent = agent.sendMessage(guest.username, 'For guest 12 only');
    await delivered;
    // Guest 13 never got it; its marker (bodiless, so the server lets it through) is ignored.
    const forged = nextEvent(agent, 'delivery', () => true, 1500);
    other.markDisplayed({
      ...sent,
      direction: 'in',
      payload: { ...sent.payload, from: 'staff-0' },
    });
    await expect(forged).rejects.toThrow(/no matching/);
  });

  it('dates a late message by its delay stamp (XEP-0203), never in the future', async () => {
    const agent = await connected('staff-0');
    const raw = await rawClient(guestName(11), 'raw');
    try {
      const stamp = new Date(Date.now() - 7 * 60_000);
      const payload = (message: string) => ({
        sender: 'GUEST',
        from: guestName(11),
        to: agent.username,
        message,
      });
      const late = nextEvent(agent, 'message', (r) => r.payload.message === 'late');
      raw.sendMessage({
        to: agent.jid,
        type: 'chat',
        body: 'late',
        json: payload('late'),
        delay: { timestamp: stamp },
      });
      expect((await late).at).toBe(stamp.toISOString());

      const future = nextEvent(agent, 'message', (r) => r.payload.message === 'future');
      const before = Date.now();
      raw.sendMessage({
        to: agent.jid,
        type: 'chat',
        body: 'future',
        json: payload('future'),
        delay: { timestamp: new Date(Date.now() + 3_600_000) },
      });
      const at = Date.parse((await future).at);
      expect(at).toBeGreaterThanOrEqual(before);
      expect(at).toBeLessThanOrEqual(Date.now());
    } finally {
      raw.disconnect();
    }
  });
});

describe('the queue', () => {
  it('shows the agent the guests in order as they join, leave and are taken', async () => {
    const agent = await connected('staff-7');
    await agent.joinRoom(acmeSales, { nick: agent.username });
    const guests: ChatSession[] = [];
    for (const n of [11, 12, 13]) {
      const guest = await connected(guestName(n));
      await guest.joinRoom(acmeSales, {
        nick: guest.username,
        status: { state: 'OpenCall', peer: 'roundRobin' },
      });
      guests.push(guest);
    }
    const [first, second] = guests as [ChatSession, ChatSession, ChatSession];

    const agentRoom = await roomWhere(
      agent,
      acmeSales,
      (room) => agentQueue(room, agent.username).length === 3,
    );
    expect(agentQueue(agentRoom, agent.username).map((g) => [g.nick, g.position])).toEqual(
      guests.map((g, index) => [g.username, index + 1]),
    );

    await first.leaveRoom(acmeSales);
    await roomWhere(agent, acmeSales, (room) => agentQueue(room, agent.username).length === 2);

    // Taken by an agent: a call id leaves the open-call set (spec §4).
    second.setPresence(acmeSales, {
      state: 'OpenCall',
      peer: agent.username,
      callId: callIdOf(12),
    });
    await roomWhere(agent, acmeSales, (room) => agentQueue(room, agent.username).length === 1);
  });
});
