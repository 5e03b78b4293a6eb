import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_READY_PATH, startHaproxy } from '../src/cluster/haproxy.ts';
import { buildNetwork, type SimulatedNetwork } from '../src/cluster/network.ts';
import { loadTopology, nodesOf, topologySchema } from '../src/cluster/topology.ts';
import { startProcess } from '../src/process.ts';
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

describe('the simulated network', () => {
  it('gives each node its own address, reachable from another node and from the supervisor, and lets a node be unplugged', async () => {
    const server = await serveIn('api1');
    try {
      const url = `http://${network.node('api1').address}:8000/`;
      await server.waitUntilReady(async () => (await fetch(url)).ok);
      expect(await (await fetch(url)).text()).toBe('api1');
      expect(await curlFrom('browsers', url)).toBe('api1');
      // Its own namespace: the server is not on the supervisor's loopback, nor the node's address here.
      expect(await curlFrom('browsers', 'http://127.0.0.1:8000/')).toMatch(
        /^failed: .*(refused|Couldn't connect)/i,
      );

      await network.setLink('api1', false);
      expect(await curlFrom('browsers', url)).toMatch(/^failed: /);
      await network.setLink('api1', true);
      await expect.poll(() => curlFrom('browsers', url), { timeout: 10_000 }).toBe('api1');
    } finally {
      await server.stop();
    }
    // A killed node's process is gone: nothing answers at its address any more.
    expect(await curlFrom('browsers', `http://${network.node('api1').address}:8000/`)).toMatch(
      /^failed: .*(refused|Couldn't connect)/i,
    );
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
      }
    } finally {
      await haproxy.stop();
      await Promise.all(chat.map((server) => server.stop()));
    }
  });
});
