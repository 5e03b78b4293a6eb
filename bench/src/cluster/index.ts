// `npm run bench -- --only cluster` (issue 21, docs/scaling.md): what scaling out costs and
// gives. The placement of a call's room on a Janus server of the pool, beside a bare single-row
// statement's floor; calls set up per second and live calls held by one of each server (1 API,
// 1 ejabberd, 1 Janus) and by two of each, on the simulated cluster of this one machine.
import { cpus, loadavg } from 'node:os';
import type { Section } from '../report.ts';
import { liveCallRows, measureLiveCalls, ratioRow, type LiveCallsPlan } from './calls.ts';
import { measurePlacement, type PlacementPlan } from './placement.ts';
import { onSimulatedCluster } from './simulated.ts';

export type ClusterPlan = { placement: PlacementPlan; liveCalls: LiveCallsPlan };

export async function measureCluster(
  plan: ClusterPlan,
  log: (line: string) => void,
): Promise<Section> {
  const loadBefore = loadavg();
  const placement = await measurePlacement(plan.placement, log);
  const [one, two] = [
    await onSimulatedCluster(1, log, (target) => measureLiveCalls(target, plan.liveCalls, log)),
    await onSimulatedCluster(2, log, (target) => measureLiveCalls(target, plan.liveCalls, log)),
  ];
  return {
    rows: [
      ...placement.rows,
      ...liveCallRows(one),
      ...liveCallRows(two),
      ratioRow(one, two),
      {
        figure: 'Cluster: the box',
        measured: `${cpus().length} cores shared by every server and the load`,
        goal: 'reported',
        note: `load average ${loadBefore.map((l) => l.toFixed(1)).join(' ')} at the start, ${loadavg()[0]?.toFixed(1)} at the end`,
      },
    ],
    data: {
      placement: placement.data,
      oneOfEach: one,
      twoOfEach: two,
      loadAverageAtStart: loadBefore,
      loadAverageAtEnd: loadavg(),
    },
  };
}
