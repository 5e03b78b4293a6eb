import { execFileSync } from 'node:child_process';
import { networkInterfaces } from 'node:os';
import { resolve } from 'node:path';
import type {
  Browser,
  BrowserContext,
  BrowserContextOptions,
  BrowserType,
  LaunchOptions,
  Page,
} from '@playwright/test';
import { likeAPerson } from './fixtures.ts';

/** The guest's browser runs as this user (chromium-as-guest.sh), which the firewall rule names. */
const GUEST_UID = 65534; // nobody
const TABLE = 'frontdesk_e2e_guest';
const wrapper = resolve(import.meta.dirname, 'chromium-as-guest.sh');

/**
 * Takes UDP away from the guest's browser: an nftables rule drops every UDP packet its user's
 * sockets send (ICE host and server-reflexive candidates, STUN and TURN over UDP), as a network
 * that lets only TCP out would. Only inside scripts/isolated, whose network namespace the rule
 * dies with; `remove` takes it away at once. `dropped` counts what it stopped: a rule that
 * stopped nothing proves nothing.
 */
export function blockGuestUdp(): { dropped: () => number; remove: () => void } {
  // networkInterfaces, not /sys/class/net: sysfs shows the namespace it was mounted in.
  if (!networkInterfaces().veth0) {
    throw new Error('the TURN journeys change the firewall: run them inside scripts/isolated');
  }
  execFileSync('nft', ['-f', '-'], {
    input: `table inet ${TABLE} {
      chain output {
        type filter hook output priority 0; policy accept;
        meta skuid ${GUEST_UID} meta l4proto udp counter drop
      }
    }\n`,
  });
  return {
    dropped: () => {
      const listing = execFileSync('nft', ['list', 'table', 'inet', TABLE], { encoding: 'utf8' });
      return Number(/counter packets (\d+)/.exec(listing)?.[1] ?? 0);
    },
    remove: () => {
      execFileSync('nft', ['delete', 'table', 'inet', TABLE], { stdio: 'ignore' });
    },
  };
}

/**
 * The guest's page in a browser of its own, run as `nobody` (chromium-as-guest.sh), with the
 * suite's launch and context options (a browser launched by hand gets none of the config's
 * `use`). It records the page's peer connections ({@link recordPeerConnections}).
 */
export async function guestBrowserPage(
  browserType: BrowserType,
  launchOptions: LaunchOptions,
  contextOptions: BrowserContextOptions,
): Promise<{ browser: Browser; page: Page }> {
  const browser = await browserType.launch({ ...launchOptions, executablePath: wrapper });
  const context = await browser.newContext(contextOptions);
  await likeAPerson(context);
  await recordPeerConnections(context);
  return { browser, page: await context.newPage() };
}

/**
 * Keeps every peer connection the context's pages make, for {@link selectedPairs}: the media
 * adapter keeps them to itself. Before the page opens.
 */
export async function recordPeerConnections(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const Native = window.RTCPeerConnection;
    const made: RTCPeerConnection[] = [];
    Object.defineProperty(window, '__peerConnections', { value: made });
    window.RTCPeerConnection = class extends Native {
      constructor(configuration?: RTCConfiguration) {
        super(configuration);
        made.push(this);
      }
    };
  });
}

/** One end of an ICE candidate pair, as `getStats()` reports it. */
export type Candidate = {
  candidateType: string;
  protocol: string;
  relayProtocol?: string;
  address?: string;
  port?: number;
};

/** The candidate pair a live peer connection of the page sends and receives media on. */
export type SelectedPair = {
  state: string;
  local: Candidate;
  remote: Candidate;
  bytesSent: number;
  bytesReceived: number;
};

/**
 * The selected candidate pair of each open peer connection of a page whose context
 * {@link recordPeerConnections} (a {@link guestBrowserPage} does).
 */
export function selectedPairs(page: Page): Promise<SelectedPair[]> {
  return page.evaluate(async () => {
    const made = (window as unknown as { __peerConnections: RTCPeerConnection[] })
      .__peerConnections;
    const pairs: SelectedPair[] = [];
    for (const pc of made) {
      if (pc.connectionState !== 'connected') continue;
      const stats = new Map<string, Record<string, unknown>>();
      (await pc.getStats()).forEach((s: Record<string, unknown>) => stats.set(String(s.id), s));
      const transport = [...stats.values()].find(
        (s) => s.type === 'transport' && s.selectedCandidatePairId,
      );
      const pair = transport ? stats.get(String(transport.selectedCandidatePairId)) : undefined;
      if (!pair) continue;
      const end = (id: unknown): Candidate => {
        const c = stats.get(String(id)) ?? {};
        return {
          candidateType: String(c.candidateType),
          protocol: String(c.protocol),
          ...(c.relayProtocol ? { relayProtocol: String(c.relayProtocol) } : {}),
          ...(c.address ? { address: String(c.address) } : {}),
          ...(typeof c.port === 'number' ? { port: c.port } : {}),
        };
      };
      pairs.push({
        state: String(pair.state),
        local: end(pair.localCandidateId),
        remote: end(pair.remoteCandidateId),
        bytesSent: Number(pair.bytesSent),
        bytesReceived: Number(pair.bytesReceived),
      });
    }
    return pairs;
  });
}
