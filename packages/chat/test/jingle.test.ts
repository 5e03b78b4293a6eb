import { afterAll, beforeAll, expect, it } from 'vitest';
import { Namespaces, type Agent } from 'stanza';
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
    // An audio call as a Jingle client offers it (XEP-0167 over XEP-0176 with DTLS): StanzaJS
    // answers a session-initiate without contents bad-request, keeping nothing, so only a full
    // one reaches the session it would keep.
    jingle: {
      action: 'session-initiate',
      sid: 'uninvited',
      initiator: stranger.jid,
      contents: [
        {
          creator: 'initiator',
          name: 'audio',
          senders: 'both',
          application: {
            applicationType: Namespaces.NS_JINGLE_RTP_1,
            media: 'audio',
            rtcpMux: true,
            codecs: [
              { id: '111', name: 'opus', clockRate: 48000, channels: 2 },
              { id: '0', name: 'PCMU', clockRate: 8000 },
            ],
          },
          transport: {
            transportType: Namespaces.NS_JINGLE_ICE_UDP_1,
            usernameFragment: 'Q3xv',
            password: 'm3qXQ9l0cUJ1sPZ2Ynh8Kc7A',
            fingerprints: [
              {
                algorithm: 'sha-256',
                setup: 'actpass',
                value:
                  '4A:7B:1C:9D:2E:5F:60:81:92:A3:B4:C5:D6:E7:F8:09:1A:2B:3C:4D:5E:6F:70:81:92:A3:B4:C5:D6:E7:F8:09',
              },
            ],
            candidates: [
              {
                component: 1,
                foundation: '1',
                generation: 0,
                id: 'c1',
                ip: '192.0.2.10',
                network: 1,
                port: 50000,
                priority: 2130706431,
                protocol: 'udp',
                type: 'host',
              },
            ],
          },
        },
      ],
    },
  });
  await expect(answer).rejects.toMatchObject({
    type: 'error',
    error: { condition: 'service-unavailable' },
  });
});
