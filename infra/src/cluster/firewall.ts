import { EJABBERD_CLUSTER_DIST_PORT } from '../ejabberd.ts';
import type { ClusterRole, Topology } from './topology.ts';

/** What a node's firewall is made from: every node's role and address, the ports between them. */
export type FirewallPlan = {
  readonly ports: Topology['ports'];
  readonly nodes: readonly { readonly address: string; readonly role: ClusterRole }[];
  /** The supervisor's address on the bridge. */
  readonly supervisorAddress: string;
};

/** The nftables table each node's rules live in (one namespace each: nothing else shares it). */
const FIREWALL_TABLE = 'frontdesk_node';

/** Janus's RTP range in nftables' notation. */
const mediaPorts = (ports: Topology['ports']) => `${ports.janusRtp[0]}-${ports.janusRtp[1]}`;

/** The addresses of the plan's nodes of `role`, as an nftables set. */
const addressesOf = (plan: FirewallPlan, role: ClusterRole) =>
  `{ ${plan.nodes
    .filter((node) => node.role === role)
    .map((node) => node.address)
    .join(', ')} }`;

/**
 * What a firewall in front of the server `role` lets in beyond answers to its own connections:
 * each line a source, protocol and ports. The callers are those of docs/scaling.md's picture,
 * nothing more: a server that another role reaches directly by mistake fails here as it would
 * behind a real deployment's firewall.
 */
function allowedIn(role: Exclude<ClusterRole, 'browsers'>, plan: FirewallPlan): string[] {
  const { ports } = plan;
  switch (role) {
    case 'lb':
      return [
        // The one public door: browsers (and anyone) to the API through haproxy.
        `tcp dport ${ports.http} accept`,
        // The chat server's ports are the API's alone (haproxy's own ACL says the same).
        `ip saddr ${addressesOf(plan, 'api')} tcp dport { ${ports.xmppWebsocket}, ${ports.xmppAdmin} } accept`,
      ];
    case 'api':
      // Only through the balancer: the API trusts exactly its X-Forwarded-For (TRUST_PROXY).
      return [`ip saddr ${addressesOf(plan, 'lb')} tcp dport ${ports.http} accept`];
    case 'xmpp':
      return [
        // The admin API trusts its callers: only the balancer, which lets only the API replicas in.
        `ip saddr ${addressesOf(plan, 'lb')} tcp dport { ${ports.xmppWebsocket}, ${ports.xmppAdmin} } accept`,
        // Plain XMPP clients, as the topology's port says.
        `tcp dport ${ports.xmppClient} accept`,
        // Erlang distribution runs the cluster's shared tables: between the chat nodes only.
        `ip saddr ${addressesOf(plan, 'xmpp')} tcp dport ${EJABBERD_CLUSTER_DIST_PORT} accept`,
      ];
    case 'janus':
      return [
        // REST and signalling: only the API replicas (browsers' signalling is tunnelled by the API).
        `ip saddr ${addressesOf(plan, 'api')} tcp dport { ${ports.janusHttp}, ${ports.janusWebsocket} } accept`,
        // Media: any browser, on the RTP range only.
        `udp dport ${mediaPorts(ports)} accept`,
      ];
  }
}

/**
 * The nftables ruleset (`nft -f -`) of one node of the simulated cluster, made from the topology's
 * addresses and ports, so that the simulated bridge filters as a real deployment's firewall would
 * and a journey that bypasses the load balancer or reaches a server it should not fails in the
 * cluster e2e instead of passing on a flat network.
 *
 * - Every node accepts answers to its own connections (established/related, which also covers
 *   the ICMP errors about them) and its own loopback (ejabberdctl reaches its node at the node's
 *   address, which Linux routes through `lo`).
 * - Server nodes accept anything from the supervisor: it stands for the operator's monitoring
 *   host, checking each server's readiness directly, and the tests and bench probe from it. What
 *   else comes in is {@link allowedIn}'s, per role; server nodes' own traffic out is not filtered.
 * - The browsers' node is the visitors' internet: out only to the load balancer's HTTP port and
 *   the Janus servers' media range (UDP), nothing in but answers.
 * - What comes into the browsers' node unasked is dropped without a word, as a home router does
 *   (Janus's first ICE checks may arrive before the browser's own: ICE tries again). Anything
 *   else no rule lets through is refused ("administratively prohibited"), so a forbidden
 *   connection fails at once with an error instead of hanging until its caller's timeout.
 *
 * PostgreSQL is not on the bridge (every node reaches it through its Unix socket, decision 0041),
 * so no rule names it. The topology is IPv4 only; IPv6 (link-local only here) gets nothing.
 */
export function firewallRuleset(role: ClusterRole, plan: FirewallPlan): string {
  const refuse = 'reject with icmpx type admin-prohibited';
  const answersAndLoopback = (direction: 'iif' | 'oif') => [
    'ct state established,related accept',
    `${direction} "lo" accept`,
  ];
  const chain = (name: string, hook: string, rules: string[]) =>
    [
      `  chain ${name} {`,
      `    type filter hook ${hook} priority filter; policy drop;`,
      ...rules.map((rule) => `    ${rule}`),
      '  }',
    ].join('\n');
  const chains =
    role === 'browsers'
      ? [
          // A visitor's machine behind its router: nothing comes in unasked.
          chain('input', 'input', answersAndLoopback('iif')),
          chain('output', 'output', [
            ...answersAndLoopback('oif'),
            `ip daddr ${addressesOf(plan, 'lb')} tcp dport ${plan.ports.http} accept`,
            `ip daddr ${addressesOf(plan, 'janus')} udp dport ${mediaPorts(plan.ports)} accept`,
            refuse,
          ]),
        ]
      : [
          chain('input', 'input', [
            ...answersAndLoopback('iif'),
            `ip saddr ${plan.supervisorAddress} accept`,
            ...allowedIn(role, plan),
            refuse,
          ]),
        ];
  return `table inet ${FIREWALL_TABLE} {\n${chains.join('\n')}\n}\n`;
}
