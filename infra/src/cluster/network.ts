import { execFile } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { startProcess, type SupervisedProcess } from '../process.ts';

const execFileAsync = promisify(execFile);

/** One machine of the simulated cluster: a network namespace joined to the bridge. */
export type SimulatedNode = {
  readonly name: string;
  readonly address: string;
  /** The namespace's file, for `nsenter --net=` ({@link StartProcessOptions.netns}). */
  readonly netns: string;
  /** The bridge's end of the node's veth pair (its "cable"). */
  readonly cable: string;
};

export type SimulatedNetwork = {
  /** The supervisor's own address on the bridge: it reaches every node from here. */
  readonly bridgeAddress: string;
  readonly nodes: ReadonlyMap<string, SimulatedNode>;
  node(name: string): SimulatedNode;
  /** Unplugs (or plugs back) a node's cable: its packets go nowhere, as a dead machine's. */
  setLink(name: string, up: boolean): Promise<void>;
  /** Ends the namespaces' holders and removes the bridge. Idempotent. */
  stop(): Promise<void>;
};

export type NetworkOptions = {
  /** The bridge's interface name (at most 15 characters). */
  bridge: string;
  /** The bridge's address in the nodes' /24, e.g. `10.210.0.1`. */
  bridgeAddress: string;
  nodes: readonly { name: string; address: string }[];
  /** Where the holders' (empty) logs go. */
  logDir: string;
};

const run = (command: string, args: string[]) => execFileAsync(command, args);

/** `ip` inside a node's namespace. */
const ipIn = (netns: string, args: string[]) =>
  run('nsenter', [`--net=${netns}`, '--', 'ip', ...args]);

const netnsOf = (pid: number | 'self') => readlinkSync(`/proc/${pid}/ns/net`);

/**
 * Whether this process runs in a network namespace of its own (scripts/isolated) rather than
 * the machine's: the simulated network adds interfaces and must never touch the host's
 * (decision 0041). The machine's namespace is the one with a default route (PID 1's namespace
 * cannot always be read inside a container).
 */
export function inPrivateNetwork(): boolean {
  const routes = readFileSync('/proc/net/route', 'utf8').split('\n').slice(1);
  return !routes.some((line) => line.split('\t')[1] === '00000000');
}

/**
 * Builds the simulated network inside the caller's own namespace (scripts/isolated): a bridge
 * holding `bridgeAddress`, and for each node a namespace held by a sleeping process, joined to
 * the bridge by a veth pair whose inner end is `eth0` with the node's address. No mount is
 * needed: processes enter a node through `/proc/<holder>/ns/net`. A failure part-way removes
 * what was made.
 */
export async function buildNetwork(options: NetworkOptions): Promise<SimulatedNetwork> {
  if (!inPrivateNetwork()) {
    throw new Error(
      "the simulated cluster adds interfaces: run it inside a network namespace of its own (scripts/isolated), never in the machine's",
    );
  }
  const holders: SupervisedProcess[] = [];
  const nodes = new Map<string, SimulatedNode>();
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await Promise.all(holders.map((holder) => holder.stop().catch(() => undefined)));
      await run('ip', ['link', 'del', options.bridge]).catch(() => undefined);
    })());
  try {
    await run('ip', ['link', 'add', options.bridge, 'type', 'bridge']);
    await run('ip', ['addr', 'add', `${options.bridgeAddress}/24`, 'dev', options.bridge]);
    await run('ip', ['link', 'set', options.bridge, 'up']);
    for (const { name, address } of options.nodes) {
      const holder = await startProcess({
        name: `netns ${name}`,
        command: 'unshare',
        args: ['--net', '--', 'sleep', 'infinity'],
        logFile: `${options.logDir}/netns-${name}.log`,
      });
      holders.push(holder);
      // unshare makes the namespace, then becomes `sleep`: wait until the PID is in it.
      while (netnsOf(holder.pid) === netnsOf('self')) await sleep(5);
      const netns = `/proc/${holder.pid}/ns/net`;
      const cable = `fd-${name}`.slice(0, 15);
      await run('ip', [
        'link',
        'add',
        cable,
        'type',
        'veth',
        'peer',
        'name',
        'eth0',
        'netns',
        String(holder.pid),
      ]);
      await run('ip', ['link', 'set', cable, 'master', options.bridge, 'up']);
      await ipIn(netns, ['addr', 'add', `${address}/24`, 'dev', 'eth0']);
      await ipIn(netns, ['link', 'set', 'eth0', 'up']);
      await ipIn(netns, ['link', 'set', 'lo', 'up']);
      nodes.set(name, { name, address, netns, cable });
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const node = (name: string) => {
    const found = nodes.get(name);
    if (!found) throw new Error(`no node ${name} in the simulated network`);
    return found;
  };
  return {
    bridgeAddress: options.bridgeAddress,
    nodes,
    node,
    setLink: async (name, up) => {
      await run('ip', ['link', 'set', node(name).cable, up ? 'up' : 'down']);
    },
    stop,
  };
}
