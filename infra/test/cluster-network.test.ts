import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildNetwork, type SimulatedNetwork } from '../src/cluster/network.ts';
import { startProcess } from '../src/process.ts';
import { tempDir } from './helpers.ts';

const execFileAsync = promisify(execFile);

let dir: Awaited<ReturnType<typeof tempDir>>;
let network: SimulatedNetwork;
beforeAll(async () => {
  dir = await tempDir('frontdesk-cluster-network-');
  network = await buildNetwork({
    bridge: 'fdtest0',
    bridgeAddress: '10.210.0.1',
    nodes: [
      { name: 'api1', address: '10.210.0.11' },
      { name: 'browsers', address: '10.210.0.50' },
    ],
    logDir: dir.path,
  });
});
afterAll(async () => {
  await network?.stop();
  await dir?.remove();
});

/** A web server on port 8000 inside a node, answering with the node's name. */
const serveIn = (node: string) =>
  startProcess({
    name: `server in ${node}`,
    command: process.execPath,
    args: [
      '-e',
      `require('node:http').createServer((q, r) => r.end('${node}')).listen(8000, '${network.node(node).address}')`,
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
      const url = 'http://10.210.0.11:8000/';
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
    expect(await curlFrom('browsers', 'http://10.210.0.11:8000/')).toMatch(
      /^failed: .*(refused|Couldn't connect)/i,
    );
  });
});
