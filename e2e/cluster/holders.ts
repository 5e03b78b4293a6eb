import type { Page, WebSocket } from '@playwright/test';
import { expect } from '../support/fixtures.ts';
import { queryRows } from '../support/db.ts';
import { staffJabberUsername } from '../../apps/api/src/xmpp/addresses.ts';

/**
 * Which node of the simulated cluster holds a call's connections, asked of the nodes themselves
 * before one is killed: a journey that killed a node by name might lose a node the calls never
 * used, and prove nothing.
 */

type Topology = {
  ports: { http: number };
  api: { name: string; address: string }[];
  xmpp: { name: string; address: string }[];
};
const topology = JSON.parse(process.env.FRONTDESK_CLUSTER_TOPOLOGY ?? '{}') as Topology;

/** The paths of the API's WebSocket gateways (apps/api/src/plugins/gateway.ts). */
const RELAYED_PATHS = ['/xmpp-websocket', '/janus-ws'];

/**
 * Counts the chat and media WebSockets `page` holds open through the API's gateways, from the
 * browser's side. Call it before the page opens any.
 */
export function countRelayedWebSockets(page: Page): () => number {
  const open = new Set<WebSocket>();
  page.on('websocket', (socket) => {
    if (!RELAYED_PATHS.includes(new URL(socket.url()).pathname)) return;
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  });
  return () => open.size;
}

/** The browser WebSockets a replica relays now: its `frontdesk_websocket_connections`, summed. */
async function relayedBy(address: string): Promise<number> {
  // Read on the replica's own address (allowed to the supervisor, e2e/cluster/global-setup.ts).
  const response = await fetch(`http://${address}:${topology.ports.http}/metrics`);
  expect(response.status).toBe(200);
  const samples = [
    ...(await response.text()).matchAll(/^frontdesk_websocket_connections\{[^}]*\} (\d+)$/gm),
  ];
  expect(samples.length, 'one sample per gateway').toBe(RELAYED_PATHS.length);
  return samples.reduce((sum, [, count]) => sum + Number(count), 0);
}

/**
 * The API replica relaying the most of the calls' WebSockets, once every WebSocket the replicas
 * relay is one the calls' pages hold (`openByPages`: nothing else is open), so that what it
 * relays is theirs. Expects it to relay at least one.
 */
export async function replicaHoldingCalls(
  openByPages: () => number,
): Promise<{ name: string; held: number; of: number }> {
  let counts: { name: string; relayed: number }[] = [];
  await expect
    .poll(
      async () => {
        counts = await Promise.all(
          topology.api.map(async ({ name, address }) => ({
            name,
            relayed: await relayedBy(address),
          })),
        );
        return counts.reduce((sum, { relayed }) => sum + relayed, 0) - openByPages();
      },
      {
        timeout: 30_000,
        message: "WebSockets the replicas relay beyond those the calls' pages hold open",
      },
    )
    .toBe(0);
  const [busiest] = counts.sort((a, b) => b.relayed - a.relayed);
  expect(
    busiest?.relayed,
    "the replica to kill relays one of the calls' WebSockets",
  ).toBeGreaterThanOrEqual(1);
  return { name: busiest?.name ?? '', held: busiest?.relayed ?? 0, of: openByPages() };
}

/** The chat users of a call: its guest and the agent who answered (their XMPP localparts). */
async function chatUsersOf(callId: string): Promise<string[]> {
  const [row] = await queryRows<{ guest: string; agent_id: number }>(
    `select g.jabberusername as guest, c.agent_id from call_reports c
       join guests g on g.id = c.guest_id where c.call_id = $1`,
    [callId],
  );
  expect(row?.agent_id).toEqual(expect.any(Number));
  const { guest, agent_id } = row as { guest: string; agent_id: number };
  return [guest, staffJabberUsername(agent_id)];
}

/** Each chat session of the cluster as `[localpart, xmpp node name]`, from every node. */
async function chatSessions(): Promise<[string, string][]> {
  const sessions = new Map<string, [string, string]>();
  for (const { name } of topology.xmpp) {
    const response = await fetch(`${process.env.FRONTDESK_CONTROL_URL}/xmpp-sessions/${name}`);
    const text = await response.text();
    expect(response.status, text).toBe(200);
    // `ejabberdctl connected_users_info`: a tab-separated line per session, its full JID first
    // and, among the fields, the Erlang node holding it (`ejabberd@<address>`).
    for (const line of text.split('\n').filter(Boolean)) {
      const fields = line.split('\t');
      const jid = fields[0] ?? '';
      const address = fields
        .find((field) => field.startsWith('ejabberd@'))
        ?.slice('ejabberd@'.length);
      const holder = topology.xmpp.find((node) => node.address === address);
      expect(holder, `the node of ${line}`).toBeDefined();
      sessions.set(jid, [jid.split('@')[0] ?? '', holder?.name ?? '']);
    }
  }
  return [...sessions.values()];
}

/**
 * The ejabberd node holding the most of the calls' chat sessions (their guests' and agents'), by
 * ejabberd's own account. Expects it to hold at least one.
 */
export async function xmppNodeHoldingCalls(
  callIds: string[],
): Promise<{ name: string; held: number; of: number }> {
  const users = new Set((await Promise.all(callIds.map(chatUsersOf))).flat());
  const ofCalls = (await chatSessions()).filter(([user]) => users.has(user));
  const held = new Map<string, number>();
  for (const [, node] of ofCalls) held.set(node, (held.get(node) ?? 0) + 1);
  const [busiest] = [...held].sort((a, b) => b[1] - a[1]);
  expect(
    busiest?.[1],
    "the node to kill holds one of the calls' chat sessions",
  ).toBeGreaterThanOrEqual(1);
  return { name: busiest?.[0] ?? '', held: busiest?.[1] ?? 0, of: ofCalls.length };
}
