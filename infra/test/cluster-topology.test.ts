import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTopology, nodesOf } from '../src/cluster/topology.ts';

const project = loadTopology();

/** loadTopology of `topology` written to a file of its own. */
async function load(topology: unknown) {
  const dir = await mkdtemp(join(tmpdir(), 'frontdesk-topology-'));
  try {
    const file = join(dir, 'topology.json');
    await writeFile(file, JSON.stringify(topology));
    return loadTopology(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('the cluster topology', () => {
  it("is the project's simulated one: two of each, a load balancer and the browsers, on 10.210.0.0/24", () => {
    expect(nodesOf(project).map(({ name, address }) => `${name} ${address}`)).toEqual([
      'xmpp1 10.210.0.21',
      'xmpp2 10.210.0.22',
      'janus1 10.210.0.31',
      'janus2 10.210.0.32',
      'lb 10.210.0.10',
      'api1 10.210.0.11',
      'api2 10.210.0.12',
      'browsers 10.210.0.50',
    ]);
  });

  it('refuses an address used twice, a name that cannot name an interface, a port out of range', async () => {
    const file = JSON.parse(
      await readFile(new URL('../src/cluster/topology.json', import.meta.url), 'utf8'),
    ) as typeof project;
    await expect(
      load({ ...file, api: [file.api[0], { name: 'api3', address: '10.210.0.21' }] }),
    ).rejects.toThrow('address 10.210.0.21 is used twice');
    await expect(
      load({ ...file, browsers: { name: 'Browsers!', address: '10.210.0.50' } }),
    ).rejects.toThrow('browsers.name must be a short lower-case name');
    await expect(load({ ...file, ports: { ...file.ports, http: 70_000 } })).rejects.toThrow(
      'ports.http',
    );
    await expect(load({ ...file, api: [] })).rejects.toThrow('api');
  });
});
