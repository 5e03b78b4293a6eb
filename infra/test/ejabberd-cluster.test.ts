import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatSession } from '../../packages/chat/src/index.ts';
import {
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
const HAPROXY_WS_PORT = 15280;

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

/** A tiny haproxy in front of the nodes' WebSocket, as E's load balancer: node 1 while it lives. */
async function startHaproxy(): Promise<ChildProcess> {
  const config = join(dir.path, 'haproxy.cfg');
  await writeFile(
    config,
    [
      'defaults',
      '  mode tcp',
      '  timeout connect 1s',
      '  timeout client 1h',
      '  timeout server 1h',
      // A refused connection (the node is gone) is tried on the other node at once.
      '  retries 2',
      '  option redispatch',
      'frontend xmpp',
      `  bind ${API_ADDRESS}:${HAPROXY_WS_PORT}`,
      '  default_backend nodes',
      'backend nodes',
      '  balance first',
      ...NODE_ADDRESSES.map(
        (address, index) =>
          `  server node${index + 1} ${address}:${PORTS.wsPort} check inter 1s fall 1 rise 2`,
      ),
      '',
    ].join('\n'),
  );
  const child = spawn('haproxy', ['-db', '-f', config], { stdio: 'ignore' });
  for (let tries = 0; ; tries += 1) {
    const ready = await fetch(`http://${API_ADDRESS}:${HAPROXY_WS_PORT}/ws`).then(
      () => true,
      () => false,
    );
    if (ready) return child;
    if (tries > 50) throw new Error('haproxy did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
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
    sender: 'AGENT',
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
    let admin: RoomAdmin;
    let roomJid: string;
    let agent: ChatSession;
    let colleague: ChatSession;
    let colleagueOnNode1: ChatSession;

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
      // staff-1 comes through haproxy (node 1 while it lives); staff-2 on node 2, and in a second
      // tab on node 1.
      agent = await session('staff-1', `ws://${API_ADDRESS}:${HAPROXY_WS_PORT}/ws`);
      colleague = await session('staff-2', second.wsUrl, 'tab-node2');
      colleagueOnNode1 = await session('staff-2', first.wsUrl, 'tab-node1');
      expect(await nodesOf(second, 'staff-1')).toEqual([first.nodeName]);
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
      const agentBack = nextEvent(agent, 'status', (s) => s === 'connected');
      const together = (chat: ChatSession, other: string) =>
        roomWhere(chat, roomJid, (r) => r.joined && r.occupants.some((o) => o.nick === other));
      const agentDropped = nextEvent(agent, 'status', (s) => s === 'reconnecting');
      process.kill(first.beamPid, 'SIGKILL');
      await agentDropped;
      await agentBack;
      const reconnectedMs = Date.now() - lostAt;
      // Both are in the room again: the reconnected client rejoined it, the one that stayed
      // found its occupancy gone with node 1 and joined it again.
      await Promise.all([together(agent, 'staff-2'), together(colleague, 'staff-1')]);
      const inRoomMs = Date.now() - lostAt;
      expect(await nodesOf(second, 'staff-1')).toEqual([second.nodeName]);
      expect(await roomOccupants({ ...admin, adminApiUrl: second.adminApiUrl }, room)).toEqual(
        expect.arrayContaining(['staff-1', 'staff-2']),
      );
      const atColleague = nextEvent(colleague, 'message', (r) => r.direction === 'in');
      agent.sendMessage('staff-2', 'still here');
      expect((await atColleague).payload.message).toBe('still here');
      const atAgent = nextEvent(agent, 'message', (r) => r.direction === 'in');
      colleague.sendMessage('staff-1', 'so am I');
      expect((await atAgent).payload.message).toBe('so am I');
      console.info(
        `node 1 killed: client reconnected in ${reconnectedMs} ms, both back in the room in ${inRoomMs} ms, conversation on in ${Date.now() - lostAt} ms`,
      );
    });
  });
});
