import { execFile, spawn } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_READY_PATH, startHaproxy } from '../src/cluster/haproxy.ts';
import { buildNetwork, inPrivateNetwork, type SimulatedNetwork } from '../src/cluster/network.ts';
import { loadTopology, nodesOf, topologySchema } from '../src/cluster/topology.ts';
import { EJABBERD_CLUSTER_DIST_PORT } from '../src/ejabberd.ts';
import { startProcess, type SupervisedProcess } from '../src/process.ts';
import { tempDir } from './helpers.ts';

const execFileAsync = promisify(execFile);

// The project's topology, moved to 10.219.0.0/24: npm test runs every Vitest file in one
// namespace, and ejabberd-cluster.test puts 10.210.0.21 and .22 on its loopback, which would then
// answer the bridge's ARP for xmpp1's address. One network for all the tests of this file.
const topology = topologySchema.parse(
  JSON.parse(JSON.stringify(loadTopology()).replaceAll('10.210.0.', '10.219.0.')),
);

let dir: Awaited<ReturnType<typeof tempDir>>;
let network: SimulatedNetwork;
beforeAll(async () => {
  dir = await tempDir('frontdesk-cluster-network-');
  network = await buildNetwork({
    bridge: 'fdtest0',
    bridgeAddress: topology.network.supervisorAddress,
    nodes: nodesOf(topology),
    ports: topology.ports,
    logDir: dir.path,
  });
});
afterAll(async () => {
  await network?.stop();
  await dir?.remove();
});

/**
 * A web server inside a node, answering every path with the node's name; the API's readiness probe (the
 * readiness the load balancer checks) with 503 when it is not `ready`.
 */
const serveIn = (node: string, port = 8000, ready = true) =>
  startProcess({
    name: `server in ${node}`,
    command: process.execPath,
    args: [
      '-e',
      `require('node:http').createServer((q, r) => { if (q.url === '${API_READY_PATH}' && !${ready}) r.statusCode = 503; r.end('${node}'); }).listen(${port}, '${network.node(node).address}')`,
    ],
    logFile: join(dir.path, `${node}.log`),
    netns: network.node(node).netns,
  });

/** What `curl` run inside `from` gets from `url` (its error text when it fails). */
const curlFrom = async (from: string, url: string) =>
  execFileAsync('nsenter', [
    `--net=${network.node(from).netns}`,
    '--',
    'curl',
    '--silent',
    '--show-error',
    '--max-time',
    '2',
    url,
  ]).then(
    ({ stdout }) => stdout,
    (error: { stderr?: string }) => `failed: ${error.stderr ?? ''}`,
  );

/** What the supervisor (the bridge's own namespace) gets from `url` (its error when it fails). */
const fetchFromSupervisor = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(2000) }).then(
    (response) => response.text(),
    (error: Error) => `failed: ${error.message}`,
  );

/**
 * Whether a UDP datagram sent from `from` (a node, or the supervisor when undefined) to `to` on
 * `port` arrives: a listener in `to` waits up to 3 s for it while the sender sends it five times
 * (UDP has no handshake to wait for; a send the sender's own firewall refuses is ignored, as a
 * media stack would).
 */
const udpArrives = async (from: string | undefined, to: string, port: number) => {
  const inNode = (name: string | undefined, script: string): [string, string[]] =>
    name === undefined
      ? [process.execPath, ['-e', script]]
      : ['nsenter', [`--net=${network.node(name).netns}`, '--', process.execPath, '-e', script]];
  const { address } = network.node(to);
  const listener = spawn(
    ...inNode(
      to,
      `const socket = require('node:dgram').createSocket('udp4');
       socket.on('message', () => process.exit(0));
       socket.bind(${port}, '${address}', () => console.log('bound'));
       setTimeout(() => process.exit(3), 3000);`,
    ),
  );
  const exited = new Promise<number | null>((done) => listener.on('exit', done));
  await new Promise<void>((bound, failed) => {
    listener.stdout.on('data', () => bound());
    listener.on('exit', (code) => failed(new Error(`UDP listener in ${to} exited ${code}`)));
  });
  await execFileAsync(
    ...inNode(
      from,
      `const socket = require('node:dgram').createSocket('udp4');
       socket.on('error', () => undefined);
       let sent = 0;
       const timer = setInterval(() => {
         socket.send('probe', ${port}, '${address}', () => undefined);
         if (++sent === 5) { clearInterval(timer); setTimeout(() => socket.close(), 200); }
       }, 200);`,
    ),
  );
  return (await exited) === 0;
};

describe('the simulated network', () => {
  it('gives each node its own address, reachable from another node and from the supervisor, and lets a node be unplugged', async () => {
    const { http } = topology.ports;
    const server = await serveIn('api1', http);
    try {
      const url = `http://${network.node('api1').address}:${http}/`;
      await server.waitUntilReady(async () => (await fetch(url)).ok);
      expect(await (await fetch(url)).text()).toBe('api1');
      expect(await curlFrom('lb', url)).toBe('api1');
      // Its own namespace: the server is not on the load balancer's loopback.
      expect(await curlFrom('lb', `http://127.0.0.1:${http}/`)).toMatch(
        /^failed: .*(refused|Couldn't connect)/i,
      );

      await network.setLink('api1', false);
      expect(await curlFrom('lb', url)).toMatch(/^failed: /);
      await network.setLink('api1', true);
      await expect.poll(() => curlFrom('lb', url), { timeout: 10_000 }).toBe('api1');
    } finally {
      await server.stop();
    }
    // A killed node's process is gone: nothing answers at its address any more.
    expect(await curlFrom('lb', `http://${network.node('api1').address}:${http}/`)).toMatch(
      /^failed: .*(refused|Couldn't connect)/i,
    );
  });
});

describe('the firewall', () => {
  const { ports } = topology;
  const [xmpp1, xmpp2] = topology.xmpp.map(({ name }) => name);
  const [api1, api2] = topology.api.map(({ name }) => name);
  const [janus1, janus2] = topology.janus.map(({ name }) => name);
  const lb = topology.loadBalancer.name;
  /** A server on every port a role serves, each answering with its node's name. */
  const served: [string, number][] = [
    [lb, ports.http],
    [lb, ports.xmppWebsocket],
    [lb, ports.xmppAdmin],
    [api1 ?? '', ports.http],
    [xmpp1 ?? '', ports.xmppWebsocket],
    [xmpp1 ?? '', ports.xmppClient],
    [xmpp1 ?? '', ports.xmppAdmin],
    [xmpp1 ?? '', EJABBERD_CLUSTER_DIST_PORT],
    [janus1 ?? '', ports.janusHttp],
    [janus1 ?? '', ports.janusWebsocket],
  ];
  const urlOf = (node: string, port: number) => `http://${network.node(node).address}:${port}/`;
  let servers: SupervisedProcess[] = [];
  beforeAll(async () => {
    servers = await Promise.all(served.map(([node, port]) => serveIn(node, port)));
    // Every one answers the supervisor: a refusal below is the firewall's, not a missing server.
    await Promise.all(
      served.map(([node, port], i) =>
        servers[i]?.waitUntilReady(
          async () => (await fetchFromSupervisor(urlOf(node, port))) === node,
        ),
      ),
    );
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
  });

  it("lets the browsers reach the load balancer's HTTP port and nothing else of TCP", async () => {
    const [allowed, ...forbidden] = served;
    expect(allowed).toEqual([lb, ports.http]);
    expect(
      await curlFrom('browsers', `${urlOf(lb, ports.http).slice(0, -1)}${API_READY_PATH}`),
    ).toBe(lb);
    const answers = await Promise.all(
      forbidden.map(([node, port]) => curlFrom('browsers', urlOf(node, port))),
    );
    expect(answers).toHaveLength(served.length - 1);
    for (const answer of answers) expect(answer).toMatch(/^failed: .*Couldn't connect/);
  });

  it('lets each server be reached only by its callers', async () => {
    /** [from, to, port, whether it gets through] */
    const cases: [string, string, number, boolean][] = [
      // The load balancer's public port, for anyone; the chat's ports for the API replicas only.
      [janus1 ?? '', lb, ports.http, true],
      [api1 ?? '', lb, ports.xmppAdmin, true],
      [api2 ?? '', lb, ports.xmppWebsocket, true],
      [janus1 ?? '', lb, ports.xmppAdmin, false],
      [xmpp1 ?? '', lb, ports.xmppWebsocket, false],
      // The API replicas only through the load balancer.
      [lb, api1 ?? '', ports.http, true],
      [api2 ?? '', api1 ?? '', ports.http, false],
      [janus1 ?? '', api1 ?? '', ports.http, false],
      // ejabberd's WebSocket and admin API from the load balancer only, its cluster port from the
      // other chat node only; plain XMPP for anyone.
      [lb, xmpp1 ?? '', ports.xmppAdmin, true],
      [lb, xmpp1 ?? '', ports.xmppWebsocket, true],
      [api1 ?? '', xmpp1 ?? '', ports.xmppAdmin, false],
      [api1 ?? '', xmpp1 ?? '', ports.xmppWebsocket, false],
      [xmpp2 ?? '', xmpp1 ?? '', EJABBERD_CLUSTER_DIST_PORT, true],
      [api1 ?? '', xmpp1 ?? '', EJABBERD_CLUSTER_DIST_PORT, false],
      [janus1 ?? '', xmpp1 ?? '', ports.xmppClient, true],
      // Janus's REST and WebSocket from the API replicas only.
      [api2 ?? '', janus1 ?? '', ports.janusHttp, true],
      [api1 ?? '', janus1 ?? '', ports.janusWebsocket, true],
      [lb, janus1 ?? '', ports.janusHttp, false],
      [janus2 ?? '', janus1 ?? '', ports.janusWebsocket, false],
      [xmpp1 ?? '', janus1 ?? '', ports.janusHttp, false],
    ];
    const answers = await Promise.all(
      cases.map(([from, to, port]) => curlFrom(from, urlOf(to, port))),
    );
    // The answer is the server's name, or curl's refusal (anything else shows as it came).
    const outcome = (answer: string) =>
      /^failed: .*Couldn't connect/.test(answer) ? 'refused' : answer;
    expect(
      cases.map(([from, to, port], i) => `${from} → ${to}:${port} ${outcome(answers[i] ?? '')}`),
    ).toEqual(
      cases.map(
        ([from, to, port, allowed]) => `${from} → ${to}:${port} ${allowed ? to : 'refused'}`,
      ),
    );
  });

  it("lets the browsers' UDP out to the Janus servers' media ports only", async () => {
    const [low, high] = ports.janusRtp;
    expect(await udpArrives('browsers', janus1 ?? '', low)).toBe(true);
    expect(await udpArrives('browsers', janus2 ?? '', high)).toBe(true);
    // Below the range, or the range's ports on a server that is no Janus: stopped, though the
    // listener there hears the supervisor.
    expect(await udpArrives('browsers', janus1 ?? '', low - 1)).toBe(false);
    expect(await udpArrives(undefined, janus1 ?? '', low - 1)).toBe(true);
    expect(await udpArrives('browsers', xmpp1 ?? '', low)).toBe(false);
    expect(await udpArrives(undefined, xmpp1 ?? '', low)).toBe(true);
  });
});

describe('inPrivateNetwork', () => {
  it("takes a namespace with a default route, IPv6 alone or IPv4, for the machine's", async () => {
    expect(inPrivateNetwork()).toBe(true);
    const holder = await startProcess({
      name: 'netns with routes',
      command: 'unshare',
      args: ['--net', '--', 'sleep', 'infinity'],
      logFile: join(dir.path, 'netns-routes.log'),
    });
    try {
      await expect
        .poll(() => readlinkSync(`/proc/${holder.pid}/ns/net`))
        .not.toBe(readlinkSync('/proc/self/ns/net'));
      const ip = (...args: string[]) =>
        execFileAsync('nsenter', [`--net=/proc/${holder.pid}/ns/net`, '--', 'ip', ...args]);
      await ip('link', 'add', 'wan0', 'type', 'veth', 'peer', 'name', 'wan1');
      await ip('link', 'set', 'wan0', 'up');
      await ip('link', 'set', 'wan1', 'up');
      await ip('-6', 'addr', 'add', '2001:db8::2/64', 'dev', 'wan0', 'nodad');
      await ip('addr', 'add', '192.0.2.2/24', 'dev', 'wan0');
      // Addresses and their networks' routes, and the kernel's own IPv6 "unreachable" default.
      expect(inPrivateNetwork(holder.pid)).toBe(true);

      await ip('-6', 'route', 'add', 'default', 'via', '2001:db8::1', 'dev', 'wan0');
      expect(inPrivateNetwork(holder.pid)).toBe(false);
      await ip('-6', 'route', 'del', 'default', 'via', '2001:db8::1', 'dev', 'wan0');
      expect(inPrivateNetwork(holder.pid)).toBe(true);

      await ip('route', 'add', 'default', 'via', '192.0.2.1', 'dev', 'wan0');
      expect(inPrivateNetwork(holder.pid)).toBe(false);
    } finally {
      await holder.stop();
    }
  });
});

describe('the load balancer', () => {
  it('spreads browsers over the API replicas that answer their readiness check and leaves a dead one out', async () => {
    const replicas = await Promise.all(
      topology.api.map(({ name }) => serveIn(name, topology.ports.http)),
    );
    const haproxy = await startHaproxy({
      topology,
      dir: join(dir.path, 'lb'),
      netns: network.node(topology.loadBalancer.name).netns,
    });
    try {
      const url = `http://${topology.loadBalancer.address}:${topology.ports.http}/`;
      const answers = async (count: number) => {
        const names = new Set<string>();
        for (let i = 0; i < count; i += 1) names.add(await curlFrom('browsers', url));
        return [...names].sort();
      };
      await expect.poll(() => answers(6), { timeout: 10_000 }).toEqual(['api1', 'api2']);
      await replicas[0]?.stop();
      // Out once its checks fail; no request of a browser is lost meanwhile (redispatch).
      await expect.poll(() => answers(6), { timeout: 10_000 }).toEqual(['api2']);
      // Back, but not ready (a dependency down, or draining): still no browser is sent there.
      replicas[0] = await serveIn('api1', topology.ports.http, false);
      await sleep(2000);
      expect(await answers(10)).toEqual(['api2']);
    } finally {
      await haproxy.stop();
      await Promise.all(replicas.map((replica) => replica?.stop()));
    }
  });

  it('lets only the API replicas through to the chat servers (SECURITY: the admin API trusts the balancer)', async () => {
    const chat = await Promise.all(
      [topology.ports.xmppAdmin, topology.ports.xmppWebsocket].map((port) =>
        serveIn(topology.xmpp[0]?.name ?? '', port),
      ),
    );
    const haproxy = await startHaproxy({
      topology,
      dir: join(dir.path, 'lb-xmpp'),
      netns: network.node(topology.loadBalancer.name).netns,
    });
    try {
      for (const port of [topology.ports.xmppAdmin, topology.ports.xmppWebsocket]) {
        const url = `http://${topology.loadBalancer.address}:${port}/`;
        const api = topology.api[0]?.name ?? '';
        await expect.poll(() => curlFrom(api, url), { timeout: 10_000 }).toBe('xmpp1');
        // A browser (or anything that is no API replica) is cut off before it can ask anything.
        expect(await curlFrom('browsers', url)).toMatch(/^failed: /);
        expect(await curlFrom('janus1', url)).toMatch(/^failed: /);
        // Those are stopped by the firewall already; the supervisor gets through every firewall,
        // so what stops it is haproxy's own rule.
        expect(await fetchFromSupervisor(url)).toMatch(/^failed: /);
      }
    } finally {
      await haproxy.stop();
      await Promise.all(chat.map((server) => server.stop()));
    }
  });
});
