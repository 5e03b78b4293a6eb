// `npm run bench -- --only cluster` (issue 21): what scaling out costs and gives. The rate at
// which one node (1 API, 1 ejabberd, 1 Janus: the bench stack) lets calls through.
import { cpus, loadavg } from 'node:os';
import type { Section } from '../report.ts';
import { startBenchStack } from '../stack.ts';
import { measureCallSetupRate, type CallSetupPlan } from './call-setup.ts';

export type ClusterPlan = { callSetup: CallSetupPlan };

export async function measureCluster(
  plan: ClusterPlan,
  log: (line: string) => void,
): Promise<Section> {
  const loadBefore = loadavg();
  const stack = await startBenchStack(log);
  let callSetup;
  try {
    callSetup = await measureCallSetupRate(stack.url, plan.callSetup);
  } finally {
    await stack.stop();
  }
  return {
    rows: [
      callSetup.row,
      {
        figure: 'Cluster: the box',
        measured: `${cpus().length} cores shared by every server and the load`,
        goal: 'reported',
        note: `load average ${loadBefore.map((l) => l.toFixed(1)).join(' ')} at the start`,
      },
    ],
    data: {
      callSetup: callSetup.result,
      loadAverageAtStart: loadBefore,
    },
  };
}
