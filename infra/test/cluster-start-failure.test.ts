import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster } from '../src/cluster/cluster.ts';
import { childrenOf, movedTopology } from './cluster-helpers.ts';
import { tempDir } from './helpers.ts';

const execFileAsync = promisify(execFile);

// On a /24 and a bridge of its own (npm test runs every Vitest file in one namespace).
const topology = movedTopology('10.216.0', 'fdfail0');

let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('frontdesk-cluster-start-failure-');
});
afterAll(async () => {
  await dir?.remove();
});

describe('a cluster whose start fails part-way', () => {
  it('stops everything already started: servers still starting, its PostgreSQL, the network', async () => {
    // janus2's folder is taken by a file: its start fails at once, while janus1's (started at
    // the same moment) is still under way, after both ejabberd nodes and the data folder's
    // PostgreSQL are up.
    mkdirSync(join(dir.path, 'nodes'));
    writeFileSync(join(dir.path, 'nodes', 'janus2'), '');
    const before = new Set(childrenOf(process.pid).map((child) => child.pid));

    await expect(
      startCluster({
        repoRoot: resolve(import.meta.dirname, '../..'),
        dataDir: dir.path,
        topology,
        seedDemo: false,
        logLevel: 'warn',
        log: () => undefined,
      }),
    ).rejects.toThrow(/EEXIST.*nodes\/janus2/);

    // No server of the data folder (each names its folder on its command line)…
    const left = spawnSync('pgrep', ['-a', '-f', dir.path], { encoding: 'utf8' }).stdout;
    expect(left).toBe('');
    // …nor a namespace's holder, nor anything else this process started…
    expect(childrenOf(process.pid).filter((child) => !before.has(child.pid))).toEqual([]);
    // …and the bridge is gone.
    await expect(execFileAsync('ip', ['link', 'show', topology.network.bridge])).rejects.toThrow(
      /does not exist/,
    );
  });
});
