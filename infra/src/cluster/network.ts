import { execFile } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { startProcess, type SupervisedProcess } from '../process.ts';
import { firewallRuleset } from './firewall.ts';
import type { ClusterRole, Topology } from './topology.ts';

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
  /** Each node's role and the ports between them make its firewall ({@link firewallRuleset}). */
  nodes: readonly { name: string; address: string; role: ClusterRole }[];
  ports: Topology['ports'];
  /** Where the holders' (empty) logs go. */
  logDir: string;
};

const run = (command: string, args: string[]) => execFileAsync(command, args);

/** `ip` inside a node's namespace. */
const ipIn = (netns: string, args: string[]) =>
  run('nsenter', [`--net=${netns}`, '--', 'ip', ...args]);

/** Loads an nftables ruleset into a node's namespace (`nft -f -`). */
const nftIn = async (netns: string, ruleset: string) => {
  const loading = execFileAsync('nsenter', [`--net=${netns}`, '--', 'nft', '-f', '-']);
  loading.child.stdin?.end(ruleset);
  await loading;
};

const netnsOf = (pid: number | 'self') => readlinkSync(`/proc/${pid}/ns/net`);

/** Route flags (linux/route.h): the route is up; it is a "reject" route (unreachable). */
const RTF_UP = 0x0001;
const RTF_REJECT = 0x0200;

/** Whether a route's flags (hex, as /proc/net shows them) make it one packets leave by. */
const usable = (hexFlags: string | undefined) => {
  const flags = Number.parseInt(hexFlags ?? '0', 16);
  return (flags & RTF_UP) !== 0 && (flags & RTF_REJECT) === 0;
};

/** The lines of a /proc/<pid>/net table; none when the file is absent. */
const routeLines = (file: string) => {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  } catch {
    return []; // IPv6 disabled: no ipv6_route.
  }
};

/**
 * Whether the process `pid` (this one by default) runs in a network namespace of its own
 * (scripts/isolated) rather than the machine's: the simulated network adds interfaces and must
 * never touch the host's (decision 0041). The machine's namespace is the one with a default
 * route, IPv4 or IPv6 (PID 1's namespace cannot always be read inside a container). Every
 * namespace's IPv6 table holds a default "reject" route of the kernel's own (unreachable, on
 * `lo`): only a usable one counts.
 */
export function inPrivateNetwork(pid: number | 'self' = 'self'): boolean {
  // Iface Destination Gateway Flags …, destination and mask 00000000 for a default route.
  const ipv4Default = routeLines(`/proc/${pid}/net/route`)
    .slice(1)
    .map((line) => line.split(/\s+/))
    .some(
      ([, destination, , flags, , , , mask]) =>
        destination === '00000000' && mask === '00000000' && usable(flags),
    );
  // Destination, prefix length, source, source prefix, next hop, metric, refs, use, flags, device.
  const ipv6Default = routeLines(`/proc/${pid}/net/ipv6_route`)
    .map((line) => line.trim().split(/\s+/))
    .some(
      ([destination, prefixLength, , , , , , , flags]) =>
        /^0{32}$/.test(destination ?? '') && prefixLength === '00' && usable(flags),
    );
  return !ipv4Default && !ipv6Default;
}

/**
 * Builds the simulated network inside the caller's own namespace (scripts/isolated): a bridge
 * holding `bridgeAddress`, and for each node a namespace held by a sleeping process, joined to
 * the bridge by a veth pair whose inner end is `eth0` with the node's address. No mount is
 * needed: processes enter a node through `/proc/<holder>/ns/net`. A failure part-way removes
 * what was made. Each node gets its firewall before anything runs in it.
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
    const firewallPlan = {
      ports: options.ports,
      nodes: options.nodes,
      supervisorAddress: options.bridgeAddress,
    };
    for (const { name, address, role } of options.nodes) {
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
      await nftIn(netns, firewallRuleset(role, firewallPlan));
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
