import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatSession } from '../../packages/chat/src/index.ts';
import { ensureCallRoom } from '../../packages/chat/src/server/rooms.ts';
import { nextEvent, roomWhere } from '../../packages/chat/test/helpers.ts';
import {
  ejabberdClusterNodes,
  joinEjabberdCluster,
  startEjabberd,
  EJABBERD_CLUSTER_DIST_PORT,
  type RunningEjabberd,
} from '../src/ejabberd.ts';
import {
  messagesBothWays,
  startTestCluster,
  togetherInRoom,
  type TestCluster,
} from './ejabberd-cluster-setup.ts';

// None of them is an address of the cluster's topology (infra/src/cluster/topology.json) nor of
// ejabberd-cluster.test: npm test runs every file in one namespace.
const NODE_ADDRESSES = ['10.210.0.41', '10.210.0.42'] as const;
const THIRD_ADDRESS = '10.210.0.43';
const API_ADDRESS = '10.210.0.44';
const ROOM = 'faults-call';
/** The nftables table that cuts the two nodes apart. */
const SPLIT_TABLE = 'frontdesk_ejabberd_split';

let cluster: TestCluster;
let nodes: RunningEjabberd[];
let roomJid: string;

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `check` holds, asking every half second. */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await delay(500);
}

/** Resolves once `node`'s `list_cluster` names exactly `expected`. */
function clusterIs(node: RunningEjabberd, expected: readonly string[]): Promise<void> {
  const wanted = [...expected].sort().join(' ');
  return until(async () => (await ejabberdClusterNodes(node)).sort().join(' ') === wanted);
}

/** How often Mnesia on `node` has logged that it went on apart from a node that did too. */
async function partitionsLogged(node: RunningEjabberd): Promise<number> {
  const log = await readFile(join(node.logDir, 'ejabberd.log'), 'utf8');
  return (
    log.split('mnesia_event got {inconsistent_database, running_partitioned_network,').length - 1
  );
}

/**
 * Cuts (or heals) the Erlang distribution links between the two nodes, nothing else: each node's
 * connections leave from its own address, and ejabberdctl reaches a node from that node's.
 */
function distributionCut(cut: boolean): void {
  if (!cut) {
    execFileSync('nft', ['delete', 'table', 'inet', SPLIT_TABLE]);
    return;
  }
  const [one, other] = NODE_ADDRESSES;
  const port = String(EJABBERD_CLUSTER_DIST_PORT);
  execFileSync('nft', ['-f', '-'], {
    input: [
      `table inet ${SPLIT_TABLE} {`,
      '  chain output {',
      '    type filter hook output priority 0;',
      ...[
        [one, other],
        [other, one],
      ].flatMap(([from, to]) => [
        `    ip saddr ${from} ip daddr ${to} tcp dport ${port} drop`,
        `    ip saddr ${from} ip daddr ${to} tcp sport ${port} drop`,
      ]),
      '  }',
      '}',
      '',
    ].join('\n'),
  });
}

beforeAll(async () => {
  cluster = await startTestCluster({
    name: 'frontdesk-ejabberd-faults',
    nodeAddresses: NODE_ADDRESSES,
    spareAddresses: [THIRD_ADDRESS],
    apiAddress: API_ADDRESS,
    frontends: {
      node1first: { port: 15290, order: [...NODE_ADDRESSES, THIRD_ADDRESS] },
      node2first: { port: 15291, order: [NODE_ADDRESSES[1], NODE_ADDRESSES[0], THIRD_ADDRESS] },
      node3first: { port: 15292, order: [THIRD_ADDRESS, ...NODE_ADDRESSES] },
    },
  });
  nodes = cluster.nodes;
  const [first] = nodes as [RunningEjabberd];
  roomJid = `${ROOM}@${first.mucService}`;
  // Created through node 1, the room's process lives there.
  await ensureCallRoom(
    { adminApiUrl: first.adminApiUrl, domain: first.domain },
    {
      name: ROOM,
      title: 'Faults call',
      members: ['staff-1', 'staff-2', 'staff-3', 'staff-4', 'staff-5'].map(
        (user) => `${user}@${first.domain}`,
      ),
    },
  );
});

afterAll(async () => {
  for (const node of nodes ?? []) {
    try {
      process.kill(node.beamPid, 'SIGCONT');
    } catch {
      // already gone
    }
  }
  // A test that failed while the link was cut.
  if (execFileSync('nft', ['list', 'tables'], { encoding: 'utf8' }).includes(SPLIT_TABLE)) {
    distributionCut(false);
  }
  await cluster?.stop();
});

/** A room presence from each to the other, through the room's process (the apps' room traffic). */
async function presenceBothWays(one: ChatSession, other: ChatSession): Promise<void> {
  for (const [from, to, state] of [
    [one, other, 'InCall'],
    [other, one, 'InCall'],
    [one, other, 'Away'],
    [other, one, 'Away'],
  ] as const) {
    const seen = roomWhere(to, roomJid, (r) =>
      r.occupants.some((o) => o.nick === from.username && o.status?.state === state),
    );
    from.setPresence(roomJid, { state });
    await seen;
  }
}

/** A room presence and a message each way between `one` and `other`. */
async function conversation(one: ChatSession, other: ChatSession, text: string): Promise<void> {
  await Promise.all([togetherInRoom(one, roomJid, other), togetherInRoom(other, roomJid, one)]);
  await presenceBothWays(one, other);
  await messagesBothWays(one, other, text);
}

/** Restarts a node on its folder (its Mnesia schema names the cluster); it replaces the old one in `nodes`. */
async function restart(node: RunningEjabberd): Promise<RunningEjabberd> {
  await node.stop();
  const address = node.nodeName.split('@')[1] as string;
  const restarted = await startEjabberd(cluster.nodeOptions(address));
  nodes[nodes.indexOf(node)] = restarted;
  return restarted;
}

// Each fault waits for Erlang to take a node for down (net_ticktime 8 s) and a split to heal by a
// restart: far beyond the suite's 30 s a test.
describe('faults in an ejabberd cluster', { timeout: 240_000 }, () => {
  let agent: ChatSession;
  let colleague: ChatSession;

  beforeAll(async () => {
    const [first, second] = nodes as [RunningEjabberd, RunningEjabberd];
    agent = await cluster.session('staff-1', cluster.haproxyUrl('node1first'));
    colleague = await cluster.session('staff-2', cluster.haproxyUrl('node2first'));
    expect(await cluster.nodesOf(second, 'staff-1')).toEqual([first.nodeName]);
    expect(await cluster.nodesOf(first, 'staff-2')).toEqual([second.nodeName]);
    await agent.joinRoom(roomJid, { nick: agent.username, status: { state: 'Away' } });
    await colleague.joinRoom(roomJid, { nick: colleague.username, status: { state: 'Away' } });
    await conversation(agent, colleague, 'before the faults');
  });

  it('a frozen node (SIGSTOP): its client drops the silent connection, is back through haproxy on the other node, and the conversation goes on; woken, the node is partitioned until restarted', async () => {
    const [first, second] = nodes as [RunningEjabberd, RunningEjabberd];
    const frozenAt = Date.now();
    const dropped = nextEvent(agent, 'status', (s) => s === 'reconnecting', 60_000);
    const back = nextEvent(agent, 'status', (s) => s === 'connected', 120_000);
    process.kill(first.beamPid, 'SIGSTOP');
    try {
      // Nothing closes its connection: only the client's keep-alive finds it silent.
      await dropped;
      const droppedMs = Date.now() - frozenAt;
      await back;
      const reconnectedMs = Date.now() - frozenAt;
      expect(await cluster.nodesOf(second, 'staff-1')).toContain(second.nodeName);
      // The room lived on node 1: node 2 starts it again once it takes node 1 for down.
      await Promise.all([
        togetherInRoom(agent, roomJid, colleague, 120_000),
        togetherInRoom(colleague, roomJid, agent, 120_000),
      ]);
      const inRoomMs = Date.now() - frozenAt;
      await conversation(agent, colleague, 'through the freeze');
      const conversingMs = Date.now() - frozenAt;
      expect(await ejabberdClusterNodes(second)).toEqual([second.nodeName]);
      console.info(
        `node 1 frozen: its client dropped it after ${droppedMs} ms, was connected to node 2 after ${reconnectedMs} ms, both in the room after ${inRoomMs} ms, presence and messages both ways after ${conversingMs} ms`,
      );
    } finally {
      process.kill(first.beamPid, 'SIGCONT');
    }
    // Woken, node 1 finds node 2 went on without it: Mnesia raises running_partitioned_network
    // (on one node or both) and merges nothing; each lists itself alone.
    await Promise.all([clusterIs(first, [first.nodeName]), clusterIs(second, [second.nodeName])]);
    console.info(
      `node 1 woken: partitions logged by node 1 ${await partitionsLogged(first)}, node 2 ${await partitionsLogged(second)}`,
    );
    // The recovery: restart the node that froze; it copies the tables from node 2 again.
    const restarted = await restart(first);
    for (const node of [restarted, second]) {
      await clusterIs(node, [restarted.nodeName, second.nodeName]);
    }
    const onRestarted = await cluster.session('staff-3', restarted.wsUrl);
    await onRestarted.joinRoom(roomJid, { nick: onRestarted.username });
    await conversation(onRestarted, colleague, 'after the restart');
    await onRestarted.close();
  });

  it('a netsplit: each side goes on alone, and after healing one side restarted makes the cluster whole again', async () => {
    const [first, second] = nodes as [RunningEjabberd, RunningEjabberd];
    const left = await cluster.session('staff-4', first.wsUrl);
    const right = await cluster.session('staff-5', second.wsUrl);
    for (const chat of [left, right]) await chat.joinRoom(roomJid, { nick: chat.username });
    await conversation(left, right, 'before the split');
    const drops: string[] = [];
    for (const chat of [left, right]) {
      chat.on('status', (s) => {
        if (s === 'reconnecting') drops.push(chat.username);
      });
    }
    const cutAt = Date.now();
    distributionCut(true);
    try {
      await Promise.all([clusterIs(first, [first.nodeName]), clusterIs(second, [second.nodeName])]);
      const splitSeenMs = Date.now() - cutAt;
      // Each side takes the other's sessions for gone: a message across the split bounces.
      const failed = nextEvent(left, 'delivery', (d) => d.delivery === 'failed');
      const sent = left.sendMessage(right.username, 'across the split');
      expect((await failed).id).toBe(sent.id);
      // Both are still connected to their own node, and each in a room of its side.
      expect([left.status, right.status]).toEqual(['connected', 'connected']);
      await Promise.all([
        roomWhere(left, roomJid, (r) => r.joined),
        roomWhere(right, roomJid, (r) => r.joined),
      ]);
      console.info(
        `split: each node listed itself alone after ${splitSeenMs} ms; left sees ${left
          .room(roomJid)
          ?.occupants.map((o) => o.nick)
          .join(',')}, right sees ${right
          .room(roomJid)
          ?.occupants.map((o) => o.nick)
          .join(',')}; dropped: ${drops.join(',') || 'none'}`,
      );
    } finally {
      distributionCut(false);
    }
    const healedAt = Date.now();
    // Healed, the nodes may talk again, but Mnesia merges nothing: still each alone.
    await delay(3 * 8000);
    expect(await ejabberdClusterNodes(first)).toEqual([first.nodeName]);
    expect(await ejabberdClusterNodes(second)).toEqual([second.nodeName]);
    console.info(
      `healed for 24 s: partitions logged by node 1 ${await partitionsLogged(first)}, node 2 ${await partitionsLogged(second)} (counting the freeze's)`,
    );
    // The recovery: restart one side (here node 2); it copies node 1's tables.
    const rightBack = nextEvent(right, 'status', (s) => s === 'connected', 120_000);
    const restarted = await restart(second);
    for (const node of [first, restarted]) {
      await clusterIs(node, [first.nodeName, restarted.nodeName]);
    }
    await rightBack;
    expect(await cluster.nodesOf(first, 'staff-5')).toEqual([restarted.nodeName]);
    await conversation(left, right, 'after healing');
    console.info(`healed: the cluster whole again ${Date.now() - healedAt} ms after the cut ended`);
  });

  it('a third node joins the running cluster: existing clients stay, new ones land on it and meet them in the room', async () => {
    const [first, second] = nodes as [RunningEjabberd, RunningEjabberd];
    const drops: string[] = [];
    for (const chat of [agent, colleague]) {
      chat.on('status', (s) => {
        if (s !== 'connected') drops.push(`${chat.username} ${s}`);
      });
    }
    const third = await startEjabberd(cluster.nodeOptions(THIRD_ADDRESS));
    nodes.push(third);
    await joinEjabberdCluster(third, first.nodeName);
    for (const node of [first, second, third]) {
      await clusterIs(node, [first.nodeName, second.nodeName, third.nodeName]);
    }
    await cluster.haproxySees(THIRD_ADDRESS, 'UP');
    const newcomer = await cluster.session('staff-3', cluster.haproxyUrl('node3first'));
    expect(await cluster.nodesOf(first, 'staff-3')).toEqual([third.nodeName]);
    // A members-only room: node 3 lets staff-3 in from the affiliations it copied.
    await newcomer.joinRoom(roomJid, { nick: newcomer.username });
    await conversation(newcomer, agent, 'from node 3');
    await conversation(newcomer, colleague, 'from node 3 again');
    await conversation(agent, colleague, 'still there');
    expect(drops).toEqual([]);
  });
});
