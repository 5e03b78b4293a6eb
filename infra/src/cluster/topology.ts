import { readFileSync } from 'node:fs';
import { isIPv4 } from 'node:net';
import { z } from 'zod';

const port = z.number().int().min(1).max(65535);
const nodeName = z
  .string()
  .regex(/^[a-z][a-z0-9]{0,11}$/, 'must be a short lower-case name (it names an interface)');
const node = z.object({
  name: nodeName,
  address: z.string().refine((value) => isIPv4(value), 'must be an IPv4 address'),
});

/**
 * A Frontdesk cluster: which node plays which role at which address, the ports between them
 * (the same on every node of a role) and where the secrets every node shares come from
 * (docs/scaling.md). `scripts/cluster.mjs` starts every node on one machine, each in a network
 * namespace of its own (the simulated cluster); `scripts/cluster.mjs --node <name>` starts one
 * node's server on the machine that holds its address, from a file naming the machines' own
 * addresses.
 */
export const topologySchema = z
  .object({
    /** The simulated cluster's network alone: a node started with `--node` never reads it. */
    network: z.object({
      /** The simulated cluster's bridge (at most 15 characters: an interface name). */
      bridge: z.string().regex(/^[a-z][a-z0-9]{0,14}$/),
      /** Where the supervisor itself sits on the nodes' network (it checks their readiness). */
      supervisorAddress: node.shape.address,
    }),
    ports: z.object({
      /** Browsers → load balancer → API replicas. */
      http: port,
      /** API → load balancer → ejabberd (XMPP over WebSocket, browsers' chat tunnelled by the API). */
      xmppWebsocket: port,
      /** Plain XMPP clients → ejabberd. */
      xmppClient: port,
      /** API → load balancer → ejabberd's admin API. */
      xmppAdmin: port,
      /** API → Janus (REST: rooms, health). */
      janusHttp: port,
      /** API → Janus (the browsers' signalling, tunnelled by the API). */
      janusWebsocket: port,
      /** Browsers ↔ Janus, UDP media. */
      janusRtp: z.tuple([port, port]).refine(([low, high]) => low <= high, 'low port first'),
    }),
    loadBalancer: node,
    api: z.array(node).min(1),
    xmpp: z.array(node).min(1),
    janus: z.array(node.extend({ capacity: z.number().int().min(1) })).min(1),
    /**
     * The simulated cluster's browsers (the e2e's Chromium): a namespace with no server. On
     * machines of their own the browsers are the visitors', anywhere; `--node` refuses this one.
     */
    browsers: node,
    xmppDomain: z.string().min(1),
    /**
     * Where the shared secrets come from: `data-folder` is the data folder's `secrets.json` and
     * `erlang.cookie`, made once (the simulated cluster's first start, or `--make-secrets`) and
     * copied into the data folder of every machine that needs them (docs/scaling.md, "Across
     * machines"): `--node` never makes them.
     */
    secrets: z.literal('data-folder'),
  })
  .superRefine((topology, context) => {
    const nodes = [
      topology.loadBalancer,
      ...topology.api,
      ...topology.xmpp,
      ...topology.janus,
      topology.browsers,
    ];
    for (const key of ['name', 'address'] as const) {
      const seen = new Set<string>([
        ...(key === 'address' ? [topology.network.supervisorAddress] : []),
      ]);
      for (const entry of nodes) {
        if (seen.has(entry[key])) {
          context.addIssue({ code: 'custom', message: `${key} ${entry[key]} is used twice` });
        }
        seen.add(entry[key]);
      }
    }
  });

export type Topology = z.infer<typeof topologySchema>;
export type ClusterRole = 'lb' | 'api' | 'xmpp' | 'janus' | 'browsers';
/** One node of the topology: its name, its address and the role it plays. */
export type TopologyNode = { name: string; address: string; role: ClusterRole };

/** The project's simulated topology (infra/src/cluster/topology.json), or another file's. */
export function loadTopology(
  file = new URL('./topology.json', import.meta.url).pathname,
): Topology {
  const parsed = topologySchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    throw new Error(
      `${file}: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(file)'} ${issue.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}

/** Every node of the topology with its role, in the order the cluster starts them. */
export function nodesOf(topology: Topology): TopologyNode[] {
  return [
    ...topology.xmpp.map((entry) => ({ ...entry, role: 'xmpp' as const })),
    ...topology.janus.map((entry) => ({ ...entry, role: 'janus' as const })),
    { ...topology.loadBalancer, role: 'lb' as const },
    ...topology.api.map((entry) => ({ ...entry, role: 'api' as const })),
    { ...topology.browsers, role: 'browsers' as const },
  ];
}
