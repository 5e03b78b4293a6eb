import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Agent } from 'stanza';
import { CHAT_RESOURCE } from '@frontdesk/protocol';
import { createChatClient } from '../src/connection.ts';
import type { ChatSession } from '../src/index.ts';
import { mintToken, sessionOf, startTestXmpp, type TestXmpp } from './helpers.ts';

let test: TestXmpp;
let agent: ChatSession;
let stranger: Agent;

beforeAll(async () => {
  test = await startTestXmpp();
  agent = await sessionOf(test, 'staff-7');
  await agent.connect();
  // A guest of no call of the agent's, on a bare client of the same library.
  const jid = `g9-g${'j'.repeat(25)}@${test.xmpp.domain}`;
  stranger = createChatClient({
    url: test.xmpp.wsUrl,
    jid,
    token: await mintToken(test.jwtSecret, jid),
    resource: CHAT_RESOURCE,
  });
  const bound = new Promise((resolve) => stranger.once('session:started', resolve));
  stranger.connect();
  await bound;
});

afterAll(async () => {
  stranger?.disconnect();
  await agent?.close();
  await test?.stop();
});

// SECURITY: ejabberd routes IQs between any two users, so the session itself must refuse a
// Jingle session-initiate from anyone (StanzaJS would keep a session for it, in a browser with a
// peer connection), and keep nothing.
it('refuses a Jingle session-initiate from a stranger', async () => {
  const answer = stranger.sendIQ({
    to: `${agent.jid}/${CHAT_RESOURCE}`,
    type: 'set',
    jingle: {
      action: 'session-initiate',
      sid: 'uninvited',
      initiator: stranger.jid,
      contents: [],
    },
  });
  await expect(answer).rejects.toMatchObject({
    type: 'error',
    error: { condition: 'service-unavailable' },
  });
});
