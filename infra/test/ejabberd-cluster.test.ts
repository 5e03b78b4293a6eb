import { readFile, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatSession } from '../../packages/chat/src/index.ts';
import {
  addMembers,
  allowMessagesFrom,
  ensureCallRoom,
  roomOccupants,
  type RoomAdmin,
} from '../../packages/chat/src/server/rooms.ts';
import { nextEvent, roomWhere } from '../../packages/chat/test/helpers.ts';
import {
  ejabberdClusterNodes,
  joinEjabberdCluster,
  startEjabberd,
  type RunningEjabberd,
} from '../src/ejabberd.ts';
import {
  messagesBothWays,
  startTestCluster,
  TEST_NODE_PORTS,
  togetherInRoom,
  type TestCluster,
} from './ejabberd-cluster-setup.ts';

const NODE_ADDRESSES = ['10.210.0.21', '10.210.0.22'] as const;
const API_ADDRESS = '10.210.0.30';
const STRANGER_ADDRESS = '10.210.0.23';

let cluster: TestCluster;
let nodes: RunningEjabberd[];

/** POSTs an admin API command from `localAddress`; resolves with the HTTP status. */
function adminStatusFrom(node: RunningEjabberd, localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${node.adminApiUrl}/status`,
      { method: 'POST', localAddress, headers: { 'content-type': 'application/json' } },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end('{}');
  });
}

beforeAll(async () => {
  cluster = await startTestCluster({
    name: 'frontdesk-ejabberd-cluster',
    nodeAddresses: NODE_ADDRESSES,
    spareAddresses: [STRANGER_ADDRESS],
    apiAddress: API_ADDRESS,
    frontends: {
      node1first: { port: 15280, order: NODE_ADDRESSES },
      node2first: { port: 15281, order: [...NODE_ADDRESSES].reverse() },
    },
  });
  nodes = cluster.nodes;
});

afterAll(async () => {
  await cluster?.stop();
});

describe('an ejabberd cluster of two nodes', () => {
  it('joins the nodes: each lists both', async () => {
    for (const node of nodes) {
      expect((await ejabberdClusterNodes(node)).sort()).toEqual([
        'ejabberd@10.210.0.21',
        'ejabberd@10.210.0.22',
      ]);
    }
  });

  it('listens on the node’s own address only, and keeps the cookie off command lines (SECURITY)', async () => {
    const [first] = nodes as [RunningEjabberd];
    expect(first.wsUrl).toBe(`ws://10.210.0.21:${TEST_NODE_PORTS.wsPort}/ws`);
    await expect(fetch(`http://127.0.0.1:${TEST_NODE_PORTS.wsPort}/ws`)).rejects.toThrow();
    const cmdline = await readFile(`/proc/${first.beamPid}/cmdline`, 'utf8');
    expect(cmdline).toContain('-name\0ejabberd@10.210.0.21\0');
    expect(cmdline).not.toContain(cluster.cookie);
    const cookieFile = join(first.dir, 'home', '.erlang.cookie');
    expect((await stat(cookieFile)).mode & 0o777).toBe(0o400);
  });

  it('answers admin API calls from the allowed addresses only (SECURITY)', async () => {
    const [first] = nodes as [RunningEjabberd];
    expect(await adminStatusFrom(first, API_ADDRESS)).toBe(200);
    // Another host of the network, the other node's address, is no API host.
    expect(await adminStatusFrom(first, STRANGER_ADDRESS)).toBe(403);
    expect(await adminStatusFrom(first, NODE_ADDRESSES[1])).toBe(403);
  });

  it('lets no node with another cookie join (SECURITY)', async () => {
    const stranger = await startEjabberd(cluster.nodeOptions(STRANGER_ADDRESS, 'x'.repeat(48)));
    try {
      await expect(joinEjabberdCluster(stranger, nodes[0]?.nodeName ?? '', 5000)).rejects.toThrow();
      expect(await ejabberdClusterNodes(nodes[0] as RunningEjabberd)).not.toContain(
        stranger.nodeName,
      );
    } finally {
      await stranger.stop();
    }
  });

  describe('with a client on each node', () => {
    const room = 'cluster-call';
    const visitor = 'g1-visitor';
    let admin: RoomAdmin;
    let roomJid: string;
    let agent: ChatSession;
    let colleague: ChatSession;
    let colleagueOnNode1: ChatSession;

    const together = (chat: ChatSession, other: ChatSession) =>
      togetherInRoom(chat, roomJid, other);

    /** staff-1 and staff-2 write to each other. */
    const converse = (text: string) => messagesBothWays(agent, colleague, text);

    beforeAll(async () => {
      const [first, second] = nodes as [RunningEjabberd, RunningEjabberd];
      // Created through node 1, the room's process lives there: the one the loss takes.
      admin = { adminApiUrl: first.adminApiUrl, domain: first.domain };
      roomJid = `${room}@${first.mucService}`;
      await ensureCallRoom(admin, {
        name: room,
        title: 'Cluster call',
        members: [`staff-1@${first.domain}`, `staff-2@${first.domain}`],
      });
      // The roster entry that lets a guest write to an agent (decision 0010), kept by node 1.
      await allowMessagesFrom(admin, 'staff-1', visitor);
      // staff-1 comes through haproxy to node 1, staff-2 to node 2 (and in a second tab straight
      // to node 1).
      agent = await cluster.session('staff-1', cluster.haproxyUrl('node1first'));
      colleague = await cluster.session('staff-2', cluster.haproxyUrl('node2first'), 'tab-a');
      colleagueOnNode1 = await cluster.session('staff-2', first.wsUrl, 'tab-b');
      expect(await cluster.nodesOf(second, 'staff-1')).toEqual([first.nodeName]);
      expect(await cluster.nodesOf(second, 'staff-2')).toEqual(
        expect.arrayContaining([first.nodeName, second.nodeName]),
      );
    });

    it('shows the room’s occupants to each other across nodes, with their presence', async () => {
      await agent.joinRoom(roomJid, { nick: agent.username, status: { state: 'InCall' } });
      await colleague.joinRoom(roomJid, { nick: colleague.username, status: { state: 'Away' } });
      await roomWhere(agent, roomJid, (r) =>
        r.occupants.some((o) => o.nick === 'staff-2' && o.status?.state === 'Away'),
      );
      await roomWhere(colleague, roomJid, (r) =>
        r.occupants.some((o) => o.nick === 'staff-1' && o.status?.state === 'InCall'),
      );
      // The API asks whichever node haproxy picks: node 2 answers for node 1's room.
      const second = nodes[1] as RunningEjabberd;
      expect(
        (await roomOccupants({ ...admin, adminApiUrl: second.adminApiUrl }, room))?.sort(),
      ).toEqual(['staff-1', 'staff-2']);
    });

    it('carries messages across nodes, with carbons to the user’s other node', async () => {
      const atNode2 = nextEvent(colleague, 'message', (r) => r.direction === 'in');
      const atNode1 = nextEvent(colleagueOnNode1, 'message', (r) => r.direction === 'in');
      agent.sendMessage('staff-2', 'across the cluster');
      for (const record of await Promise.all([atNode2, atNode1])) {
        expect(record.payload.message).toBe('across the cluster');
      }
      // Sent on node 1, copied to the same user's session on node 2 (XEP-0280).
      const copied = nextEvent(colleague, 'message', (r) => r.direction === 'out');
      const sent = colleagueOnNode1.sendMessage('staff-1', 'from the other tab');
      expect(await copied).toMatchObject({
        id: sent.id,
        payload: { message: 'from the other tab' },
      });
    });

    it('delivers a state node item published on node 1 to the subscriber on node 2 (PEP)', async () => {
      await colleagueOnNode1.joinRoom(roomJid, { nick: 'staff-2' });
      const recorded = nextEvent(colleague, 'ownPresence', (s) => s.state === 'TestNode');
      colleagueOnNode1.setPresence(roomJid, { state: 'TestNode' });
      expect(await recorded).toEqual({ state: 'TestNode' });
      await colleagueOnNode1.close();
    });

    it('survives node 1’s loss: its client is back through haproxy in the same room, and the conversation goes on', async () => {
      const [first, second] = nodes as [RunningEjabberd, RunningEjabberd];
      const lostAt = Date.now();
      const agentDropped = nextEvent(agent, 'status', (s) => s === 'reconnecting');
      const agentBack = nextEvent(agent, 'status', (s) => s === 'connected');
      process.kill(first.beamPid, 'SIGKILL');
      await agentDropped;
      await agentBack;
      const reconnectedMs = Date.now() - lostAt;
      // Both are in the room again: the reconnected client rejoined it, the one that stayed
      // found its occupancy gone with node 1 (no one told it) and joined it again.
      await Promise.all([together(agent, colleague), together(colleague, agent)]);
      const inRoomMs = Date.now() - lostAt;
      await converse('still here');
      const conversingMs = Date.now() - lostAt;
      expect(await cluster.nodesOf(second, 'staff-1')).toEqual([second.nodeName]);
      // The room, its members and the roster kept by node 1 are node 2's too.
      const survivor = { ...admin, adminApiUrl: second.adminApiUrl };
      expect(await roomOccupants(survivor, room)).toEqual(
        expect.arrayContaining(['staff-1', 'staff-2']),
      );
      const guest = await cluster.session(visitor, second.wsUrl);
      const fromGuest = nextEvent(agent, 'message', (r) => r.payload.from === visitor);
      guest.sendMessage('staff-1', 'hello after the loss');
      expect((await fromGuest).payload.message).toBe('hello after the loss');
      await guest.close();
      console.info(
        `node 1 killed: its client reconnected in ${reconnectedMs} ms, both in the room again in ${inRoomMs} ms, messages both ways in ${conversingMs} ms`,
      );
    });

    it('takes node 1 back by itself, then loses node 2 to a graceful stop (a rolling restart)', async () => {
      const [, second] = nodes as [RunningEjabberd, RunningEjabberd];
      // The same folder: Mnesia remembers the cluster, so no join is needed.
      const first = await startEjabberd(cluster.nodeOptions(NODE_ADDRESSES[0]));
      nodes[0] = first;
      expect((await ejabberdClusterNodes(first)).sort()).toEqual([first.nodeName, second.nodeName]);
      await cluster.haproxySees(NODE_ADDRESSES[0], 'UP');
      // A third occupant on node 1, in the room that now lives on node 2 (restarted there after
      // the loss): it stays connected while that room goes down with node 2.
      await addMembers(admin, room, [`staff-3@${first.domain}`]);
      const stayer = await cluster.session('staff-3', first.wsUrl);
      await stayer.joinRoom(roomJid, { nick: stayer.username });
      await together(stayer, agent);
      const stoppedAt = Date.now();
      const back = [agent, colleague].map((chat) =>
        nextEvent(chat, 'status', (s) => s === 'connected'),
      );
      await second.stop();
      await Promise.all(back);
      await Promise.all([
        together(agent, colleague),
        together(colleague, agent),
        together(stayer, agent),
        together(stayer, colleague),
      ]);
      const inRoomMs = Date.now() - stoppedAt;
      await converse('after the restart');
      const conversingMs = Date.now() - stoppedAt;
      for (const user of ['staff-1', 'staff-2']) {
        expect(await cluster.nodesOf(first, user)).toEqual([first.nodeName]);
      }
      console.info(
        `node 2 stopped: its clients on node 1 and all three in the room in ${inRoomMs} ms, messages both ways in ${conversingMs} ms`,
      );
    });
  });
});
