import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ChatSession } from '../src/index.ts';
import { ensureCallRoom } from '../src/server/rooms.ts';
import { nextEvent, roomWhere, sessionOf, startTestXmpp, type TestXmpp } from './helpers.ts';

let test: TestXmpp;
const sessions: ChatSession[] = [];

beforeAll(async () => {
  test = await startTestXmpp();
});

afterAll(async () => {
  await Promise.all(sessions.map((session) => session.close()));
  await test?.stop();
});

it('reconnects both sessions after an XMPP server restart and restores their presence', async () => {
  const guest = await sessionOf(test, `g1-g${'r'.repeat(25)}`);
  const agent = await sessionOf(test, 'staff-1');
  await ensureCallRoom(test.admin, {
    name: 'call-1',
    title: 'Call 1',
    members: [guest.jid, agent.jid],
  });
  const room = `call-1@${test.xmpp.mucService}`;
  sessions.push(guest, agent);
  await Promise.all([guest.connect(), agent.connect()]);
  await guest.joinRoom(room, {
    nick: guest.username,
    status: { state: 'OpenCall', peer: 'roundRobin' },
  });
  await agent.joinRoom(room, { nick: agent.username, status: { state: 'Away' } });
  const before = await roomWhere(agent, room, (r) => r.occupants.length === 2);
  const waitingSince = before.occupants.find((o) => o.nick === guest.username)?.waitingSince;
  expect(waitingSince).toEqual(expect.any(String));

  const guestDropped = nextEvent(guest, 'status', (s) => s === 'reconnecting');
  const agentDropped = nextEvent(agent, 'status', (s) => s === 'reconnecting');
  const guestBack = nextEvent(guest, 'status', (s) => s === 'connected', 60_000);
  const agentBack = nextEvent(agent, 'status', (s) => s === 'connected', 60_000);
  await test.restart();
  await Promise.all([guestDropped, agentDropped]);
  expect(agent.room(room)?.joined).toBe(false);
  await Promise.all([guestBack, agentBack]);

  // Both are back in the room with the presence they had, the guest at its old place.
  const after = await roomWhere(agent, room, (r) => r.joined && r.occupants.length === 2);
  expect(after.occupants.find((o) => o.nick === guest.username)).toMatchObject({
    status: { state: 'OpenCall', peer: 'roundRobin' },
    waitingSince,
  });
  await roomWhere(guest, room, (r) =>
    r.occupants.some((o) => o.nick === agent.username && o.status?.state === 'Away'),
  );

  const atGuest = nextEvent(guest, 'message');
  agent.sendMessage(guest.username, 'Still there?');
  expect((await atGuest).payload.message).toBe('Still there?');
});

it('drops a connection to a frozen server (open but silent) and connects again once it answers', async () => {
  const agent = await sessionOf(test, 'staff-2');
  const colleague = await sessionOf(test, 'staff-3');
  sessions.push(agent, colleague);
  await Promise.all([agent.connect(), colleague.connect()]);
  const dropped = [agent, colleague].map((chat) =>
    nextEvent(chat, 'status', (s) => s === 'reconnecting', 60_000),
  );
  // SIGSTOP: the TCP connections stay open, nothing closes them, nothing answers on them.
  process.kill(test.xmpp.beamPid, 'SIGSTOP');
  try {
    await Promise.all(dropped);
  } finally {
    process.kill(test.xmpp.beamPid, 'SIGCONT');
  }
  await Promise.all(
    [agent, colleague].map((chat) => nextEvent(chat, 'status', (s) => s === 'connected', 60_000)),
  );
  const atColleague = nextEvent(colleague, 'message');
  agent.sendMessage(colleague.username, 'Back?');
  expect((await atColleague).payload.message).toBe('Back?');
});
