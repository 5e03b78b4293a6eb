// Accept → first frame in a p2p call (issue 23), beside the media-server figure of the same run:
// the same calls over the real UI (call-flow.ts), at the bench's p2p company (p2p-company.ts),
// where the guest's page and the console negotiate one RTCPeerConnection over their chat
// sessions. Each call is followed by one sample of its floor, two bare peer connections in one
// page (p2p-floor.ts).
import type { Browser } from 'playwright-core';
import type { Section } from '../report.ts';
import type { BenchStack } from '../stack.ts';
import { againstFloor, formatSpread, spread } from '../stats.ts';
import { timeCalls, withAgent } from './call-flow.ts';
import { callMethodsAt, seedP2pCompany } from './p2p-company.ts';
import { openP2pFloor } from './p2p-floor.ts';

export async function measureP2pCallSetup(
  browser: Browser,
  stack: BenchStack,
  calls: number,
  batches: number,
  log: (line: string) => void,
): Promise<Section> {
  const site = await seedP2pCompany(stack.databaseUrl, stack.schema);
  return withAgent(browser, stack.url, site.agentEmail, async (agent) => {
    const floor = await openP2pFloor(browser, stack.url);
    try {
      const samples = await timeCalls(browser, stack.url, agent, site, calls, async () => ({
        floor: await floor.run(),
      }));
      log(`  ${samples.length} p2p calls set up, each beside its floor`);
      // A call the API gave the media server (a recorded one, say) is no sample of this figure.
      const methods = await callMethodsAt(stack.databaseUrl, stack.schema, site.companyId);
      if (Object.keys(methods).some((method) => method !== 'p2p')) {
        throw new Error(`not every call was p2p: ${JSON.stringify(methods)}`);
      }
      const of = (values: number[]) => spread(values, batches);
      const guestFrame = of(samples.map((c) => c.guestFrameMs));
      const agentFrame = of(samples.map((c) => c.agentFrameMs));
      const guestFloor = of(samples.map((c) => c.floor.guestMs));
      const agentFloor = of(samples.map((c) => c.floor.agentMs));
      const note = `${calls} calls, each p2p in call_reports (company ${site.companyId}: callMethod p2p, recordCalls false); floor: two bare RTCPeerConnections in one page, signalled in the page, host candidates only, from capture to first frame`;
      return {
        rows: [
          {
            figure: 'Accept → first frame, p2p: guest',
            measured: formatSpread(guestFrame),
            floor: againstFloor(guestFrame, guestFloor),
            goal: 'reported',
            note,
          },
          {
            figure: 'Accept → first frame, p2p: agent',
            measured: formatSpread(agentFrame),
            floor: againstFloor(agentFrame, agentFloor),
            goal: 'reported',
            note,
          },
        ],
        data: {
          clock: 'in-page: performance.timeOrigin + performance.now(), click event.timeStamp',
          site,
          methods,
          guestFrame,
          agentFrame,
          guestFloor,
          agentFloor,
          samples,
        },
      };
    } finally {
      await floor.close();
    }
  });
}
