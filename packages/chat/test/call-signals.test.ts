import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Agent } from 'stanza';
import type { Message } from 'stanza/protocol';
import { formatCallId, type CallSignal } from '@frontdesk/protocol';
import { createChatClient } from '../src/connection.ts';
import { defineCallSignal } from '../src/signals.ts';
import { ChatError, type ChatMessageRecord, type ChatSession } from '../src/index.ts';
import { mintToken, nextEvent, sessionOf, startTestXmpp, type TestXmpp } from './helpers.ts';

const GUEST_USERNAME = `g${'s'.repeat(25)}`;
/** The guest's jabber username: its company, then its username. */
const GUEST = `g9-${GUEST_USERNAME}`;
const callId = formatCallId(GUEST_USERNAME, 'c1');

let test: TestXmpp;
let guest: ChatSession;
let agent: ChatSession;
/** What the agent's session logged. */
const agentLog: string[] = [];
/** Every chat message either session reported. */
const chatMessages: ChatMessageRecord[] = [];

function hello(session: string): CallSignal {
  return { kind: 'hello', callId, session, to: null };
}

/** The next signal `session` receives. */
function nextSignal(session: ChatSession): Promise<{ from: string; signal: CallSignal }> {
  return new Promise((resolve) => {
    const off = session.onSignal((from, signal) => {
      off();
      resolve({ from, signal });
    });
  });
}

/** A bare StanzaJS client of `username`, online, that knows the signal element. */
async function rawClient(username: string, resource: string): Promise<Agent> {
  const jid = `${username}@${test.xmpp.domain}`;
  const client = createChatClient({
    url: test.xmpp.wsUrl,
    jid,
    token: await mintToken(test.jwtSecret, jid),
    resource,
  });
  defineCallSignal(client);
  const started = new Promise((resolve) => client.once('session:started', resolve));
  void client.connect();
  await started;
  client.sendPresence();
  await client.enableCarbons();
  return client;
}

beforeAll(async () => {
  test = await startTestXmpp();
  guest = await sessionOf(test, GUEST);
  agent = await sessionOf(test, 'staff-7', { log: (message) => agentLog.push(message) });
  for (const session of [guest, agent]) session.on('message', (m) => chatMessages.push(m));
  await Promise.all([guest.connect(), agent.connect()]);
});

afterAll(async () => {
  await Promise.all([guest?.close(), agent?.close()]);
  await test?.stop();
});

// The guest has no roster entry for the agent: mod_block_strangers must let a signal through.
it('carries a signal from a guest to an agent, from the server-stamped sender', async () => {
  const received = nextSignal(agent);
  await guest.sendSignal('staff-7', hello('guest-pc-1'));
  expect(await received).toEqual({ from: GUEST, signal: hello('guest-pc-1') });
  expect(chatMessages).toEqual([]);
});

it('carries a signal from an agent back to the guest', async () => {
  const offer: CallSignal = {
    kind: 'description',
    callId,
    session: 'agent-pc-1',
    to: 'guest-pc-1',
    description: { type: 'offer', sdp: 'v=0\r\n' },
  };
  const received = nextSignal(guest);
  await agent.sendSignal(GUEST, offer);
  expect(await received).toEqual({ from: 'staff-7', signal: offer });
  expect(chatMessages).toEqual([]);
});

it('refuses to send an invalid signal or one while offline', async () => {
  const invalid = { ...hello('guest-pc-1'), session: 'x' };
  await expect(guest.sendSignal('staff-7', invalid)).rejects.toMatchObject({
    code: 'invalid-signal',
  });
  const offline = await sessionOf(test, 'staff-8');
  await expect(offline.sendSignal(GUEST, hello('agent-pc-2'))).rejects.toBeInstanceOf(ChatError);
  await expect(offline.sendSignal(GUEST, hello('agent-pc-2'))).rejects.toMatchObject({
    code: 'not-connected',
  });
});

it('drops malformed signals, logged, and hands on the next good one', async () => {
  const stranger = await rawClient(`g9-g${'m'.repeat(25)}`, 'raw');
  try {
    const signals: { from: string; signal: CallSignal }[] = [];
    const off = agent.onSignal((from, signal) => signals.push({ from, signal }));
    const good = nextSignal(agent);
    const to = agent.jid;
    stranger.sendMessage({ to, type: 'headline', callSignal: { json: '{"kind": "hello",' } });
    stranger.sendMessage({
      to,
      type: 'headline',
      callSignal: { json: JSON.stringify({ ...hello('stranger-pc'), kind: 'dial' }) },
    });
    // The payload names someone else: only the stamped sender counts.
    stranger.sendMessage({
      to,
      type: 'headline',
      callSignal: { json: JSON.stringify({ ...hello('stranger-pc'), from: GUEST }) },
    });
    stranger.sendMessage({
      to,
      type: 'headline',
      callSignal: { json: JSON.stringify(hello('stranger-pc')) },
    });
    expect(await good).toEqual({ from: `g9-g${'m'.repeat(25)}`, signal: hello('stranger-pc') });
    off();
    expect(signals).toHaveLength(1);
    // Only what the signals made it say: the session logs other things of its own at any time
    // (seen: its presence node's creation failing, logged while this test ran).
    expect(agentLog.filter((line) => line.includes('call signal'))).toEqual([
      'dropped a call signal that is not JSON',
      'dropped a call signal that is not ours',
      'dropped a call signal that is not ours',
    ]);
    expect(agent.status).toBe('connected');
    expect(chatMessages).toEqual([]);
  } finally {
    stranger.disconnect();
  }
});

it('never takes a message with a signal for a chat message', async () => {
  // Another agent may write to this one: a chat message with a valid chat payload and a signal.
  const other = await rawClient('staff-8', 'raw');
  try {
    const payload = { sender: 'AGENT', to: 'staff-7', from: 'staff-8', message: 'hi' };
    const chat = nextEvent(agent, 'message');
    other.sendMessage({
      to: agent.jid,
      type: 'chat',
      body: 'hi',
      json: payload,
      callSignal: { json: JSON.stringify(hello('agent-pc-8')) },
    });
    other.sendMessage({
      to: agent.jid,
      type: 'chat',
      body: 'plain',
      json: { ...payload, message: 'plain' },
    });
    expect((await chat).payload.message).toBe('plain');
  } finally {
    other.disconnect();
    chatMessages.length = 0;
  }
});

it('sends a signal to every session of the user, and copies it to none of the sender’s', async () => {
  const otherTab = await rawClient('staff-7', 'tab-2');
  try {
    const atOtherTab = new Promise<Message>((resolve) =>
      otherTab.on('message', (m) => {
        if (m.callSignal) resolve(m);
      }),
    );
    const firstCarbon = new Promise<Message | undefined>((resolve) =>
      otherTab.on('carbon:sent', (m) => resolve(m.carbon.forward.message)),
    );
    // To the agent: both its sessions get it.
    const atAgent = nextSignal(agent);
    await guest.sendSignal('staff-7', hello('guest-pc-2'));
    expect((await atAgent).signal).toEqual(hello('guest-pc-2'));
    expect(JSON.parse((await atOtherTab).callSignal?.json ?? '')).toEqual(hello('guest-pc-2'));
    // From the agent: its other tab's first carbon is the chat message sent after the signal.
    await agent.sendSignal(GUEST, hello('agent-pc-3'));
    agent.sendMessage(GUEST, 'after the signal');
    const carbon = await firstCarbon;
    expect(carbon?.body).toBe('after the signal');
    expect(carbon?.callSignal).toBeUndefined();
  } finally {
    otherTab.disconnect();
    chatMessages.length = 0;
  }
});
