import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatSession } from '../../packages/chat/src/index.ts';
import {
  addMembers,
  allowMessagesFrom,
  ensureCallRoom,
  roomOccupants,
  type RoomAdmin,
} from '../../packages/chat/src/server/rooms.ts';
import { mintToken, nextEvent, roomWhere } from '../../packages/chat/test/helpers.ts';
import {
  ejabberdClusterNodes,
  joinEjabberdCluster,
  startEjabberd,
  type EjabberdOptions,
  type RunningEjabberd,
} from '../src/ejabberd.ts';
import { tempDir } from './helpers.ts';

// Two nodes in this one namespace, each on an address of its own (E's simulated cluster gives
// them a namespace each); the "API host" is where haproxy listens and the admin API is called from.
const NODE_ADDRESSES = ['10.210.0.21', '10.210.0.22'] as const;
const API_ADDRESS = '10.210.0.30';
const STRANGER_ADDRESS = '10.210.0.23';
const PORTS = { wsPort: 5280, c2sPort: 5222, adminApiPort: 5385 };
const HAPROXY_PORTS = { node1first: 15280, node2first: 15281 } as const;

const jwtSecret = randomBytes(32);
const cookie = randomBytes(24).toString('hex');
let dir: Awaited<ReturnType<typeof tempDir>>;
const nodes: RunningEjabberd[] = [];
let haproxy: ChildProcess | undefined;
const sessions: ChatSession[] = [];

function nodeOptions(address: string, nodeCookie = cookie): EjabberdOptions {
  return {
    dir: join(dir.path, address),
    jwtSecret,
    ...PORTS,
    cluster: { address, cookie: nodeCookie, adminApiAllowFrom: [`${API_ADDRESS}/32`] },
  };
}

/**
 * A tiny haproxy in front of the nodes' WebSocket, as E's load balancer: each frontend sends
 * every connection to its first node while that one lives, so the test knows where each client is.
 */
async function startHaproxy(): Promise<ChildProcess> {
  const config = join(dir.path, 'haproxy.cfg');
  const backend = (name: keyof typeof HAPROXY_PORTS, order: readonly string[]) => [
    `frontend ${name}`,
    `  bind ${API_ADDRESS}:${HAPROXY_PORTS[name]}`,
    `  default_backend ${name}`,
    `backend ${name}`,
    '  balance first',
    ...order.map(
      (address) => `  server ${address} ${address}:${PORTS.wsPort} check inter 500ms fall 1 rise 2`,
    ),
  ];
  await writeFile(
    config,
    [
      'global',
      `  stats socket ${join(dir.path, 'haproxy.sock')}`,
      'defaults',
      '  mode tcp',
      '  timeout connect 1s',
      '  timeout client 1h',
      '  timeout server 1h',
      // A refused connection (the node is gone) is tried on the other node at once.
      '  retries 2',
      '  option redispatch',
      ...backend('node1first', NODE_ADDRESSES),
      ...backend('node2first', [...NODE_ADDRESSES].reverse()),
      '',
    ].join('\n'),
  );
  const child = spawn('haproxy', ['-db', '-f', config], { stdio: 'ignore' });
  for (let tries = 0; ; tries += 1) {
    const ready = await fetch(`${haproxyUrl('node2first').replace('ws:', 'http:')}`).then(
      () => true,
      () => false,
    );
    if (ready) return child;
    if (tries > 50) throw new Error('haproxy did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function haproxyUrl(frontend: keyof typeof HAPROXY_PORTS): string {
  return `ws://${API_ADDRESS}:${HAPROXY_PORTS[frontend]}/ws`;
}

/** Resolves once haproxy's health checks see the node at `address` up again. */
async function haproxySeesUp(address: string): Promise<void> {
  for (;;) {
    const stat = await new Promise<string>((resolve, reject) => {
      const socket = connect(join(dir.path, 'haproxy.sock'));
      let text = '';
      socket.on('data', (chunk) => (text += String(chunk)));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
      socket.end('show stat\n');
    });
    const rows = stat.split('\n').filter((row) => row.split(',')[1] === address);
    if (rows.length > 0 && rows.every((row) => row.split(',')[17] === 'UP')) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

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

async function session(username: string, url: string, resource?: string): Promise<ChatSession> {
  const jid = `${username}@${nodes[0]?.domain}`;
  const chat = new ChatSession({
    url,
    jid,
    token: await mintToken(jwtSecret, jid),
    sender: username.startsWith('staff-') ? 'AGENT' : 'GUEST',
    log: () => undefined,
    ...(resource ? { resource } : {}),
  });
  sessions.push(chat);
  await chat.connect();
  return chat;
}

/** The node each session of `username` is connected to (`connected_users_info`). */
async function nodesOf(node: RunningEjabberd, username: string): Promise<string[]> {
  const lines = (await node.ctl(['connected_users_info'])).split('\n');
  return lines
    .filter((line) => line.startsWith(`${username}@`))
    .map((line) => line.split('\t').find((field) => field.startsWith('ejabberd@')) ?? '');
}

beforeAll(async () => {
  for (const address of [...NODE_ADDRESSES, API_ADDRESS, STRANGER_ADDRESS]) {
    execFileSync('ip', ['addr', 'add', `${address}/32`, 'dev', 'lo']);
  }
  dir = await tempDir('frontdesk-ejabberd-cluster-');
  for (const address of NODE_ADDRESSES) nodes.push(await startEjabberd(nodeOptions(address)));
  const [first, second] = nodes as [RunningEjabberd, RunningEjabberd];
  await joinEjabberdCluster(second, first.nodeName);
  haproxy = await startHaproxy();
});

afterAll(async () => {
  await Promise.all(sessions.map((chat) => chat.close()));
  haproxy?.kill();
  await Promise.all(nodes.map((node) => node.stop()));
  await dir?.remove();
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
    expect(first.wsUrl).toBe(`ws://10.210.0.21:${PORTS.wsPort}/ws`);
    await expect(fetch(`http://127.0.0.1:${PORTS.wsPort}/ws`)).rejects.toThrow();
    const cmdline = await readFile(`/proc/${first.beamPid}/cmdline`, 'utf8');
    expect(cmdline).toContain('-name\0ejabberd@10.210.0.21\0');
    expect(cmdline).not.toContain(cookie);
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
    const stranger = await startEjabberd(nodeOptions(STRANGER_ADDRESS, 'x'.repeat(48)));
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

    const together = (chat: ChatSession, other: string) =>
      roomWhere(chat, roomJid, (r) => r.joined && r.occupants.some((o) => o.nick === other));

    /** staff-1 and staff-2 write to each other, and the visitor to staff-1. */
    async function converse(text: string): Promise<void> {
      const atColleague = nextEvent(colleague, 'message', (r) => r.payload.message === text);
      agent.sendMessage('staff-2', text);
      await atColleague;
      const atAgent = nextEvent(agent, 'message', (r) => r.payload.message === `${text}, too`);
      colleague.sendMessage('staff-1', `${text}, too`);
      await atAgent;
    }

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
      agent = await session('staff-1', haproxyUrl('node1first'));
      colleague = await session('staff-2', haproxyUrl('node2first'), 'tab-a');
      colleagueOnNode1 = await session('staff-2', first.wsUrl, 'tab-b');
      expect(await nodesOf(second, 'staff-1')).toEqual([first.nodeName]);
      expect(await nodesOf(second, 'staff-2')).toEqual(
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
      await Promise.all([together(agent, 'staff-2'), together(colleague, 'staff-1')]);
      const inRoomMs = Date.now() - lostAt;
      await converse('still here');
      const conversingMs = Date.now() - lostAt;
      expect(await nodesOf(second, 'staff-1')).toEqual([second.nodeName]);
      // The room, its members and the roster kept by node 1 are node 2's too.
      const survivor = { ...admin, adminApiUrl: second.adminApiUrl };
      expect(await roomOccupants(survivor, room)).toEqual(
        expect.arrayContaining(['staff-1', 'staff-2']),
      );
      const guest = await session(visitor, second.wsUrl);
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
      const first = await startEjabberd(nodeOptions(NODE_ADDRESSES[0]));
      nodes[0] = first;
      expect((await ejabberdClusterNodes(first)).sort()).toEqual([first.nodeName, second.nodeName]);
      await haproxySeesUp(NODE_ADDRESSES[0]);
      // A third occupant on node 1, in the room that now lives on node 2 (restarted there after
      // the loss): it stays connected while that room goes down with node 2.
      await addMembers(admin, room, [`staff-3@${first.domain}`]);
      const stayer = await session('staff-3', first.wsUrl);
      await stayer.joinRoom(roomJid, { nick: stayer.username });
      await together(stayer, 'staff-1');
      const stoppedAt = Date.now();
      const back = [agent, colleague].map((chat) =>
        nextEvent(chat, 'status', (s) => s === 'connected'),
      );
      await second.stop();
      await Promise.all(back);
      await Promise.all([
        together(agent, 'staff-2'),
        together(colleague, 'staff-1'),
        together(stayer, 'staff-1'),
        together(stayer, 'staff-2'),
      ]);
      const inRoomMs = Date.now() - stoppedAt;
      await converse('after the restart');
      const conversingMs = Date.now() - stoppedAt;
      for (const user of ['staff-1', 'staff-2']) {
        expect(await nodesOf(first, user)).toEqual([first.nodeName]);
      }
      console.info(
        `node 2 stopped: its clients on node 1 and all three in the room in ${inRoomMs} ms, messages both ways in ${conversingMs} ms`,
      );
    });
  });
});
