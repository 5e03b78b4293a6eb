// Where a call's set-up time goes (issue 22; docs/performance.md, "Guest ready in queue" and
// "Accept → first frame"): a diagnostic, not a benchmark. It walks calls as callSetup does and
// prints, for each, both pages' network steps in order — every HTTP request and answer, every
// WebSocket frame (XMPP stanzas; Janus requests and events, its acks and keep-alives left out) —
// from the guest's click on "Start the call" (S+ms) and from Cy's click on Accept (A+ms), with
// the figures' own instants (in-page.ts) among them. The network steps are Chromium's
// (DevTools Protocol `Network` events, their monotonic time put on the wall clock by each
// request's `wallTime`), the figures' the pages' own: both in epoch milliseconds.
//
//   scripts/isolated npx tsx bench/src/call/trace-setup.ts [calls] [--p2p]
//
// It starts its own stack and serves the apps as built (`npm run build` first). With `--p2p` the
// calls are p2pCallSetup's, at the bench's p2p company (p2p-company.ts): their signals show as
// the chat's headline messages.
import type { Page } from 'playwright-core';
import { startBenchStack } from '../stack.ts';
import { launchChromium } from '../web/browser.ts';
import { COMPANY_12_SITE, endCall, startCall, withAgent } from './call-flow.ts';
import { seedP2pCompany } from './p2p-company.ts';

type Step = { at: number; side: 'guest' | 'agent' | 'both'; what: string };

type Frame = { requestId: string; timestamp: number; response: { payloadData: string } };

/** Values a printed frame must not show: SASL payloads, room pins, secrets and tokens. */
const SECRETS =
  /(<auth\b[^>]*>)[^<]*|("(?:pin|secret|token|room_token|password|credential)"\s*:\s*)"[^"]*"/g;

/**
 * A p2p call's signal (packages/chat, a headline's `<signal>` with JSON, its quotes as they
 * come, escaped or not): its kind, and a description's type (offer, answer).
 */
const P2P_SIGNAL =
  /<signal\b[^>]*>.*?kind(?:"|&quot;)\s*:\s*(?:"|&quot;)(\w+)(?:.*?type(?:"|&quot;)\s*:\s*(?:"|&quot;)(offer|answer))?/;

/** A WebSocket frame in a few words: an XMPP stanza's start, or a Janus message's gist. */
function describeFrame(payload: string): string | null {
  const text = payload.replace(/\s+/g, ' ');
  const signal = P2P_SIGNAL.exec(text);
  if (signal) return `p2p signal ${signal[1]}${signal[2] ? ` ${signal[2]}` : ''}`;
  if (!text.startsWith('{')) return mask(text).slice(0, 120);
  const message = JSON.parse(text) as Record<string, unknown>;
  if (message.janus === 'ack' || message.janus === 'keepalive') return null;
  const plugin = message.plugindata as { data?: unknown } | undefined;
  const body = message.body ?? plugin?.data;
  const jsep = message.jsep ? ' +jsep' : '';
  return `janus ${String(message.janus)} ${body ? mask(JSON.stringify(body)).slice(0, 100) : ''}${jsep}`;
}

function mask(text: string): string {
  return text.replace(SECRETS, (_match, auth?: string, key?: string) =>
    auth ? `${auth}…` : `${key ?? ''}"…"`,
  );
}

/** Records `page`'s network steps into `steps`, on the browser's wall clock. */
async function record(page: Page, side: Step['side'], steps: Step[]): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  // Network timestamps are monotonic seconds; a request's wallTime gives their epoch offset.
  let offsetMs = 0;
  const names = new Map<string, string>();
  const add = (seconds: number, what: string) =>
    steps.push({ at: seconds * 1000 + offsetMs, side, what });
  cdp.on('Network.requestWillBeSent', (event) => {
    offsetMs = (event.wallTime - event.timestamp) * 1000;
    const url = new URL(event.request.url);
    const name = `${event.request.method} ${url.pathname}${url.search.slice(0, 40)}`;
    names.set(event.requestId, name);
    add(event.timestamp, `→ ${name}`);
  });
  cdp.on('Network.responseReceived', (event) =>
    add(event.timestamp, `← ${names.get(event.requestId)} ${event.response.status}`),
  );
  cdp.on('Network.webSocketCreated', (event) =>
    names.set(event.requestId, new URL(event.url).pathname),
  );
  cdp.on('Network.webSocketWillSendHandshakeRequest', (event) =>
    add(event.timestamp, `ws → ${names.get(event.requestId)}`),
  );
  cdp.on('Network.webSocketHandshakeResponseReceived', (event) =>
    add(event.timestamp, `ws ← ${names.get(event.requestId)} open`),
  );
  const frame = (direction: string) => (event: Frame) => {
    const what = describeFrame(event.response.payloadData);
    if (what) add(event.timestamp, `${direction} ${what}`);
  };
  cdp.on('Network.webSocketFrameSent', frame('ws→'));
  cdp.on('Network.webSocketFrameReceived', frame('ws←'));
  await cdp.send('Network.enable');
}

const args = process.argv.slice(2);
const calls = Number(args.find((arg) => !arg.startsWith('--')) ?? 3);
const stack = await startBenchStack((line) => console.error(line));
const site = args.includes('--p2p')
  ? await seedP2pCompany(stack.databaseUrl, stack.schema)
  : COMPANY_12_SITE;
const browser = await launchChromium();
const ms = (value: number) => Math.round(value);
try {
  await withAgent(browser, stack.url, site.agentEmail, async (agent) => {
    const steps: Step[] = [];
    await record(agent, 'agent', steps);
    for (let i = 1; i <= calls; i += 1) {
      steps.length = 0;
      const call = await startCall(browser, stack.url, agent, site, `Traced Guest ${i}`, (guest) =>
        record(guest, 'guest', steps),
      );
      const { clicked, ready, accepted, guestFrame, agentFrame } = call.instants;
      steps.push(
        { at: clicked, side: 'both', what: '■ "Start the call" clicked' },
        { at: ready, side: 'both', what: '■ queue row ready' },
        { at: accepted, side: 'both', what: '■ Accept clicked' },
        { at: guestFrame, side: 'guest', what: '■ first remote frame' },
        { at: agentFrame, side: 'agent', what: '■ first remote frame' },
      );
      console.log(
        `\ncall ${i}: ready in queue ${ms(call.queueMs)} ms; first frame guest ${ms(call.guestFrameMs)} ms, agent ${ms(call.agentFrameMs)} ms`,
      );
      const end = Math.max(guestFrame, agentFrame);
      for (const step of steps
        .filter((s) => s.at >= clicked - 20 && s.at <= end + 20)
        .sort((a, b) => a.at - b.at)) {
        const at =
          step.at >= accepted ? `A+${ms(step.at - accepted)}` : `S+${ms(step.at - clicked)}`;
        console.log(`${at.padStart(7)} ${step.side.padEnd(5)} ${step.what}`);
      }
      await endCall(agent, call.guest);
    }
  });
} finally {
  await browser.close();
  await stack.stop();
}
