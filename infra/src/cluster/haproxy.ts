import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startProcess, type SupervisedProcess } from '../process.ts';
import { renderTemplateFile } from '../template.ts';
import type { Topology } from './topology.ts';

/**
 * The API's readiness probe (apps/api/src/observability/probes.ts): 503 while its database is
 * down or it drains (decision 0038); a chat or media server down leaves it ready, since they are
 * shared and would otherwise take every replica out at once. The load balancer sends browsers only
 * to a replica that answers 200.
 */
export const API_READY_PATH = '/readyz';

/**
 * The empty folder haproxy shuts itself in once started (`chroot`), made by Debian's package with
 * the haproxy user and group it drops to.
 */
export const HAPROXY_CHROOT = '/var/lib/haproxy';

const servers = (entries: readonly { name: string; address: string }[], port: number, extra = '') =>
  entries
    .map((entry) => `\tserver ${entry.name} ${entry.address}:${port} check${extra}`)
    .join('\n');

/**
 * Renders infra/templates/haproxy/haproxy.cfg for the topology into `dir` and runs haproxy in the
 * foreground (`-db`) inside `netns` (the load balancer's node), resolving once it answers on the
 * browsers' port. It starts as root (the caller must be) and runs as the haproxy user in
 * {@link HAPROXY_CHROOT}.
 */
export async function startHaproxy(options: {
  topology: Topology;
  dir: string;
  netns?: string;
}): Promise<SupervisedProcess> {
  const { topology, dir } = options;
  await mkdir(dir, { recursive: true });
  const config = await renderTemplateFile(
    'haproxy',
    'haproxy.cfg',
    dir,
    {
      CHROOT: HAPROXY_CHROOT,
      ADDRESS: topology.loadBalancer.address,
      HTTP_PORT: topology.ports.http,
      XMPP_WEBSOCKET_PORT: topology.ports.xmppWebsocket,
      XMPP_ADMIN_PORT: topology.ports.xmppAdmin,
      API_READY_PATH,
      API_ADDRESSES: topology.api.map((replica) => replica.address).join(' '),
      API_SERVERS: servers(topology.api, topology.ports.http),
      XMPP_WEBSOCKET_SERVERS: servers(topology.xmpp, topology.ports.xmppWebsocket),
      XMPP_ADMIN_SERVERS: servers(topology.xmpp, topology.ports.xmppAdmin),
    },
    { raw: ['API_ADDRESSES', 'API_SERVERS', 'XMPP_WEBSOCKET_SERVERS', 'XMPP_ADMIN_SERVERS'] },
  );
  const proc = await startProcess({
    name: 'haproxy',
    command: 'haproxy',
    args: ['-db', '-f', config],
    logFile: join(dir, 'haproxy.log'),
    ...(options.netns ? { netns: options.netns } : {}),
  });
  try {
    // Any answer will do (503 while no replica is ready yet): haproxy is listening.
    await proc.waitUntilReady(async () => {
      await fetch(`http://${topology.loadBalancer.address}:${topology.ports.http}/`, {
        signal: AbortSignal.timeout(1000),
      });
      return true;
    });
  } catch (error) {
    await proc.stop().catch(() => undefined);
    throw error;
  }
  return proc;
}
