import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSharedSecrets } from '../src/cluster/cluster.ts';
import { HAPROXY_CHROOT } from '../src/cluster/haproxy.ts';
import { buildNetwork, type SimulatedNetwork } from '../src/cluster/network.ts';
import { nodesOf } from '../src/cluster/topology.ts';
import { passwdEntry } from '../src/data-dir.ts';
import { dropSchema, machineDatabaseUrl } from '../src/disposable-stack.ts';
import { clusterNodeCtl } from '../src/ejabberd.ts';
import { processInfo, startProcess, type SupervisedProcess } from '../src/process.ts';
import { childrenOf, movedTopology } from './cluster-helpers.ts';
import { tempDir } from './helpers.ts';

// `scripts/cluster.mjs --node <name>` for every node, each run inside its node's namespace of the
// simulated network as if that namespace were a machine of its own: nothing else starts them.
// The project's topology moved to 10.217.0.0/24 and a bridge of its own (npm test runs every
// Vitest file in one namespace).
const repoRoot = resolve(import.meta.dirname, '../..');
const topology = movedTopology('10.217.0', 'fdnode0');
const schema = `cluster_node_${randomBytes(6).toString('hex')}`;

let dir: Awaited<ReturnType<typeof tempDir>>;
let network: SimulatedNetwork;
let topologyFile: string;
const machines = new Map<string, SupervisedProcess>();

/** Each "machine's" own data folder. */
const dataDirOf = (name: string) => join(dir.path, name);

/** The environment an operator gives `--node` on a machine of the cluster. */
const nodeEnv = (name: string) => ({
  ...process.env,
  CLUSTER_TOPOLOGY: topologyFile,
  FRONTDESK_DATA_DIR: dataDirOf(name),
  DATABASE_URL: machineDatabaseUrl,
  // The test's own schema of the machine's database (the API reads it).
  DATABASE_SCHEMA: schema,
  LOG_LEVEL: 'warn',
});

/** `scripts/cluster.mjs --node <name>` started in that node's namespace, once it says it is up. */
async function startMachine(name: string, role: string): Promise<SupervisedProcess> {
  const machine = await startProcess({
    name: `cluster.mjs --node ${name}`,
    command: process.execPath,
    args: [join(repoRoot, 'scripts/cluster.mjs'), '--node', name],
    cwd: repoRoot,
    env: nodeEnv(name),
    logFile: join(dir.path, `${name}.cli.log`),
    netns: network.node(name).netns,
    // Its own start is bounded by its server's readiness deadlines: a stop mid-start waits for it.
    stopTimeoutMs: 180_000,
  });
  machines.set(name, machine);
  await machine.waitUntilReady(
    async () =>
      readFileSync(machine.logFile, 'utf8').includes(
        `${name} (${role}) is up at ${network.node(name).address}.`,
      ),
    { timeoutMs: 180_000, intervalMs: 250 },
  );
  return machine;
}

/** Live processes whose command line names a path inside the test's folder. */
const processesOfTheTest = () =>
  spawnSync('pgrep', ['-f', dir.path], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);

beforeAll(async () => {
  dir = await tempDir('frontdesk-cluster-node-');
  topologyFile = join(dir.path, 'topology.json');
  writeFileSync(topologyFile, JSON.stringify(topology));
  // Made once, then copied owner-only to every machine but the load balancer's (it needs none).
  const [secrets, cookie] = makeSharedSecrets(join(dir.path, 'origin')) as [string, string];
  for (const { name, role } of nodesOf(topology)) {
    if (role === 'lb' || role === 'browsers') continue;
    mkdirSync(dataDirOf(name));
    for (const file of [secrets, cookie]) {
      const copy = join(dataDirOf(name), file.split('/').pop() as string);
      copyFileSync(file, copy);
    }
  }
  network = await buildNetwork({
    bridge: topology.network.bridge,
    bridgeAddress: topology.network.supervisorAddress,
    nodes: nodesOf(topology),
    ports: topology.ports,
    logDir: dir.path,
  });
});

afterAll(async () => {
  await Promise.all([...machines.values()].map((machine) => machine.stop()));
  await network?.stop();
  await dropSchema(schema);
  await dir?.remove();
});

describe('scripts/cluster.mjs --node', () => {
  it('refuses a node whose address is not this machine’s, the browsers’ node, and a machine without the copied secrets', () => {
    const refusal = (name: string, env: NodeJS.ProcessEnv) => {
      const run = spawnSync(process.execPath, ['scripts/cluster.mjs', '--node', name], {
        cwd: repoRoot,
        env,
        encoding: 'utf8',
      });
      return { status: run.status, stderr: run.stderr };
    };
    // The test's own namespace holds the bridge's address, not api1's.
    expect(refusal('api1', nodeEnv('api1'))).toMatchObject({
      status: 1,
      stderr: expect.stringContaining("api1's address 10.217.0.11 is not one of this machine's"),
    });
    expect(refusal('browsers', nodeEnv('browsers')).stderr).toContain('it runs no server');
    // SECURITY: a machine never makes secrets of its own, which would differ from the others'.
    const bare = spawnSync(
      'nsenter',
      [
        `--net=${network.node('janus1').netns}`,
        '--',
        process.execPath,
        'scripts/cluster.mjs',
        '--node',
        'janus1',
      ],
      { cwd: repoRoot, env: nodeEnv('nowhere'), encoding: 'utf8' },
    );
    expect(bare.status).toBe(1);
    expect(bare.stderr).toMatch(/secrets\.json is missing: copy it/);
  });

  it('starts each node’s own server alone on its machine, and they form the cluster', async () => {
    const expected = { xmpp: 'ejabberdctl', janus: 'janus', lb: 'haproxy', api: 'node' } as const;
    const servers: number[] = [];
    // The order of docs/scaling.md: the first ejabberd node, the others join it; the first API
    // replica alone, as it migrates the database.
    for (const { name, role } of nodesOf(topology)) {
      if (role === 'browsers') continue;
      const machine = await startMachine(name, role);
      // Exactly that role's server under it.
      // But tsx's compiler service, through which the CLI itself runs.
      const children = childrenOf(machine.pid).filter((child) => child.comm !== 'esbuild');
      expect(children.map((child) => child.comm)).toEqual([expected[role]]);
      servers.push(...children.map((child) => child.pid));
    }

    // Browsers reach a ready replica through the load balancer.
    const ready = await fetch(
      `http://${topology.loadBalancer.address}:${topology.ports.http}/readyz`,
    );
    expect(ready.status).toBe(200);

    // One ejabberd cluster of both nodes, seen from each.
    for (const { name } of topology.xmpp) {
      const listed = await clusterNodeCtl(
        join(dataDirOf(name), 'nodes', name),
        network.node(name).netns,
        ['list_cluster'],
      );
      expect([...listed.matchAll(/'([^']+)'/g)].map((match) => match[1]).sort()).toEqual(
        topology.xmpp.map(({ address }) => `ejabberd@${address}`),
      );
    }

    // Both Janus servers registered by the replicas and found answering across the network.
    const client = new pg.Client({ connectionString: machineDatabaseUrl });
    await client.connect();
    try {
      await expect
        .poll(
          async () =>
            (
              await client.query<{ name: string }>(
                `select name from "${schema}".media_servers where last_healthy_at is not null order by name`,
              )
            ).rows.map((row) => row.name),
          { timeout: 30_000 },
        )
        .toEqual(topology.janus.map(({ name }) => name));
    } finally {
      await client.end();
    }

    // SECURITY: the load balancer runs as Debian's haproxy user, shut in its empty folder.
    const haproxy = childrenOf(machines.get(topology.loadBalancer.name)?.pid ?? 0)[0];
    const status = readFileSync(`/proc/${haproxy?.pid}/status`, 'utf8');
    const uids = /^Uid:\s+(.*)$/m.exec(status)?.[1]?.split(/\s+/).map(Number);
    expect(uids).toEqual(Array(4).fill(passwdEntry('haproxy')?.uid));
    expect(uids).not.toContain(0);
    expect(readlinkSync(`/proc/${haproxy?.pid}/root`)).toBe(HAPROXY_CHROOT);

    // A stop (SIGTERM, as a service manager sends) stops the node's server with it.
    await Promise.all([...machines.values()].map((machine) => machine.stop()));
    for (const machine of machines.values()) {
      expect(machine.exitInfo).toEqual({ code: 0, signal: null });
    }
    expect(servers.filter((pid) => processInfo(pid) !== undefined)).toEqual([]);
    expect(processesOfTheTest()).toEqual([]);
    // Seven servers started one after another, then a poll of up to 30 s: the suite's 30 s per
    // test ran out in two clean-clone runs here (of dd1f8a8 and ea0e328).
  }, 120_000);
});
