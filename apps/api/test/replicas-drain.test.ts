import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatSession } from '@frontdesk/chat';
import { callRoomJid, readinessSchema } from '@frontdesk/protocol';
import { waitForOwnConnections } from '../src/lifecycle/drain.ts';
import { buildTestAppWithChat, guestInRoom, type TestAppWithChat } from './chat-server.ts';
import { buildReplica, guestWithCall, markAnswered } from './helper.ts';

const DEMO = 5;
const SALES = 1;

/**
 * Decision 0038: a replica stopping for a rolling restart leaves the load balancer at once (its
 * readiness answers 503) while the WebSockets it relays go on, and it waits for those before it
 * closes.
 */
describe('draining one replica', () => {
  let t: TestAppWithChat;
  let replica: Awaited<ReturnType<typeof buildReplica>>;
  let replicaHost: string;
  const sessions: ChatSession[] = [];

  beforeAll(async () => {
    t = await buildTestAppWithChat('replicas-drain');
    // Its gateway relays to the test's chat server.
    replica = await buildReplica(t, {
      xmpp: { ...t.config.xmpp, websocketUpstream: t.xmpp.wsUrl },
    });
    await replica.app.listen({ port: 0, host: '127.0.0.1' });
    replicaHost = `127.0.0.1:${(replica.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await Promise.all(sessions.map((session) => session.close()));
    await replica?.close();
    await t?.close();
  });

  it('answers ready 503 at once while its open WebSocket still relays, and waits for it to close', async () => {
    const call = await guestWithCall(t.app, DEMO, SALES);
    await markAnswered(t.app, call.callId);
    const room = callRoomJid(call.callId, t.xmpp.domain);
    // The guest's page reached the replica through the load balancer; the agent's, the other.
    const guest = await guestInRoom(`ws://${replicaHost}/xmpp-websocket`, call, room);
    sessions.push(guest);
    const { chat: agent } = await t.signIn('ada@frontdesk.demo');
    await agent.joinRoom(room, { nick: agent.username });
    expect(replica.app.gatewayConnections.count('xmpp')).toBe(1);

    replica.app.drain.begin();
    const ready = await replica.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(readinessSchema.parse(ready.json()).status).toBe('draining');
    // The other replica stays in the load balancer.
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);

    const received = new Promise<unknown>((resolve) => {
      const off = guest.on('message', (record) => {
        if (record.direction === 'in') {
          off();
          resolve(record.payload.message);
        }
      });
    });
    agent.sendMessage(guest.username, 'Still here after the drain began');
    expect(await received).toBe('Still here after the drain began');

    // Its guest's connection holds it until the guest's page closes it.
    expect(await waitForOwnConnections(replica.app.gatewayConnections, 200, { pollMs: 50 })).toBe(
      'graceOver',
    );
    const waited = waitForOwnConnections(replica.app.gatewayConnections, 60_000, { pollMs: 50 });
    await guest.close();
    expect(await waited).toBe('closed');
  });
});
