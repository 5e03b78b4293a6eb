import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { ChatSession, type RoomSnapshot } from '../../packages/chat/src/index.ts';
import { mintToken, nextEvent, roomWhere } from '../../packages/chat/test/helpers.ts';
import {
  joinEjabberdCluster,
  startEjabberd,
  type EjabberdOptions,
  type RunningEjabberd,
} from '../src/ejabberd.ts';
import { tempDir } from './helpers.ts';

/** The listeners of every test node: each node has an address of its own, so they can match. */
export const TEST_NODE_PORTS = { wsPort: 5280, c2sPort: 5222, adminApiPort: 5385 } as const;

/** What a test cluster is made of: addresses on `lo` of the test's own namespace. */
export interface TestClusterPlan {
  /** Prefix of its temp folder. */
  readonly name: string;
  /** The nodes started and joined to the first one before the tests. */
  readonly nodeAddresses: readonly string[];
  /** Addresses of nodes a test starts itself later, or of other hosts. */
  readonly spareAddresses: readonly string[];
  /** The "API host": where haproxy listens and the admin API is allowed from. */
  readonly apiAddress: string;
  /**
   * haproxy's frontends: each sends every connection to the first node of its `order` that its
   * health check sees up, so the test knows where each client lands.
   */
  readonly frontends: Readonly<Record<string, { port: number; order: readonly string[] }>>;
}

/**
 * ejabberd nodes in one namespace, each on an address of its own (E's simulated cluster gives
 * them a namespace each), joined into one cluster, behind a tiny haproxy as E's load balancer.
 */
export interface TestCluster {
  /** The running nodes; a test that restarts one puts the new one in its place. */
  readonly nodes: RunningEjabberd[];
  readonly cookie: string;
  /** How a node on `address` is started (the folder is the address's: a restart keeps it). */
  nodeOptions(address: string, nodeCookie?: string): EjabberdOptions;
  /** The WebSocket URL of a haproxy frontend. */
  haproxyUrl(frontend: string): string;
  /** Resolves once haproxy's health checks see the node at `address` in `state` (UP, DOWN). */
  haproxySees(address: string, state: 'UP' | 'DOWN'): Promise<void>;
  /** A connected chat session of `username` through `url`, closed with the cluster. */
  session(username: string, url: string, resource?: string): Promise<ChatSession>;
  /** The node each session of `username` is connected to, as `node` sees it. */
  nodesOf(node: RunningEjabberd, username: string): Promise<string[]>;
  stop(): Promise<void>;
}

/** Resolves once `chat` is in `room` and sees `other` there. */
export function togetherInRoom(
  chat: ChatSession,
  room: string,
  other: ChatSession,
  timeoutMs?: number,
): Promise<RoomSnapshot> {
  return roomWhere(
    chat,
    room,
    (r) => r.joined && r.occupants.some((o) => o.nick === other.username),
    timeoutMs,
  );
}

/** `one` writes `text` to `other`, and `other` answers: both arrive. */
export async function messagesBothWays(
  one: ChatSession,
  other: ChatSession,
  text: string,
): Promise<void> {
  const atOther = nextEvent(other, 'message', (r) => r.payload.message === text);
  one.sendMessage(other.username, text);
  await atOther;
  const atOne = nextEvent(one, 'message', (r) => r.payload.message === `${text}, too`);
  other.sendMessage(one.username, `${text}, too`);
  await atOne;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startTestCluster(plan: TestClusterPlan): Promise<TestCluster> {
  for (const address of [...plan.nodeAddresses, ...plan.spareAddresses, plan.apiAddress]) {
    execFileSync('ip', ['addr', 'add', `${address}/32`, 'dev', 'lo']);
  }
  const dir = await tempDir(`${plan.name}-`);
  const jwtSecret = randomBytes(32);
  const cookie = randomBytes(24).toString('hex');
  const nodes: RunningEjabberd[] = [];
  const sessions: ChatSession[] = [];
  let haproxy: ChildProcess | undefined;

  const haproxyUrl = (frontend: string) => {
    const port = plan.frontends[frontend]?.port;
    if (port === undefined) throw new Error(`no haproxy frontend ${frontend}`);
    return `ws://${plan.apiAddress}:${port}/ws`;
  };

  const cluster: TestCluster = {
    nodes,
    cookie,
    nodeOptions: (address, nodeCookie = cookie) => ({
      dir: join(dir.path, address),
      jwtSecret,
      ...TEST_NODE_PORTS,
      cluster: { address, cookie: nodeCookie, adminApiAllowFrom: [`${plan.apiAddress}/32`] },
    }),
    haproxyUrl,
    async haproxySees(address, state) {
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
        if (rows.length > 0 && rows.every((row) => row.split(',')[17] === state)) return;
        await delay(200);
      }
    },
    async session(username, url, resource) {
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
    },
    async nodesOf(node, username) {
      const lines = (await node.ctl(['connected_users_info'])).split('\n');
      return lines
        .filter((line) => line.startsWith(`${username}@`))
        .map((line) => line.split('\t').find((field) => field.startsWith('ejabberd@')) ?? '');
    },
    async stop() {
      await Promise.all(sessions.map((chat) => chat.close()));
      haproxy?.kill();
      await Promise.all(nodes.map((node) => node.stop()));
      await dir.remove();
    },
  };

  try {
    for (const address of plan.nodeAddresses) {
      nodes.push(await startEjabberd(cluster.nodeOptions(address)));
    }
    const [seed, ...others] = nodes as [RunningEjabberd, ...RunningEjabberd[]];
    for (const node of others) await joinEjabberdCluster(node, seed.nodeName);
    haproxy = await startHaproxy(plan, dir.path);
    for (const frontend of Object.keys(plan.frontends)) {
      if (!(await answers(haproxyUrl(frontend)))) throw new Error(`haproxy: no ${frontend}`);
    }
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return cluster;
}

async function answers(wsUrl: string): Promise<boolean> {
  for (let tries = 0; tries <= 50; tries += 1) {
    if (
      await fetch(wsUrl.replace('ws:', 'http:')).then(
        () => true,
        () => false,
      )
    )
      return true;
    await delay(100);
  }
  return false;
}

async function startHaproxy(plan: TestClusterPlan, dir: string): Promise<ChildProcess> {
  const config = join(dir, 'haproxy.cfg');
  const frontend = ([name, { port, order }]: [
    string,
    { port: number; order: readonly string[] },
  ]) => [
    `frontend ${name}`,
    `  bind ${plan.apiAddress}:${port}`,
    `  default_backend ${name}`,
    `backend ${name}`,
    '  balance first',
    // An HTTP check, not a TCP one: the kernel of a frozen node (SIGSTOP) still accepts
    // connections, and only a request left unanswered shows it is gone. Any answer will do:
    // ejabberd answers the check's request (HTTP/1.0, no Host) with 400.
    '  option httpchk GET /ws',
    '  http-check expect rstatus ^[1-5]',
    ...order.map(
      (address) =>
        `  server ${address} ${address}:${TEST_NODE_PORTS.wsPort} check inter 500ms fall 2 rise 2`,
    ),
  ];
  await writeFile(
    config,
    [
      'global',
      `  stats socket ${join(dir, 'haproxy.sock')}`,
      'defaults',
      '  mode tcp',
      '  timeout connect 1s',
      '  timeout check 1s',
      '  timeout client 1h',
      '  timeout server 1h',
      // A refused connection (the node is gone) is tried on the other node at once.
      '  retries 2',
      '  option redispatch',
      ...Object.entries(plan.frontends).flatMap(frontend),
      '',
    ].join('\n'),
  );
  return spawn('haproxy', ['-db', '-f', config], { stdio: 'ignore' });
}
