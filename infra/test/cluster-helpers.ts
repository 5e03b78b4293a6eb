import { readdirSync, readFileSync } from 'node:fs';
import { loadTopology, topologySchema, type Topology } from '../src/cluster/topology.ts';
import { processInfo } from '../src/process.ts';

/**
 * The project's topology on another /24 and bridge: npm test runs every Vitest file in one
 * namespace, where two simulated networks may not share addresses or a bridge.
 */
export function movedTopology(subnet: string, bridge: string): Topology {
  return topologySchema.parse(
    JSON.parse(
      JSON.stringify(loadTopology())
        .replaceAll('10.210.0.', `${subnet}.`)
        .replace(/"bridge":"[a-z0-9]+"/, `"bridge":"${bridge}"`),
    ),
  );
}

/** The live processes whose parent is `pid`, with their kernel names. */
export function childrenOf(pid: number): { pid: number; comm: string }[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        // After the command name in parentheses: state, then the parent's PID.
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        const info = processInfo(Number(entry));
        return ppid === pid && info ? [{ pid: info.pid, comm: info.comm }] : [];
      } catch {
        return []; // ended while we looked
      }
    });
}
