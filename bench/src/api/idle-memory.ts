import { fork } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { bundleApi } from '@frontdesk/api/build';
import { cacheDir } from '../paths.ts';
import { commandLine, residentMemory } from '../proc.ts';
import { mb, type Section } from '../report.ts';

/**
 * How long both processes sit without a request before their memory is read: V8 and malloc
 * settle within a few seconds of the last allocation, and neither side is read mid-start.
 */
const IDLE_MS = 10_000;

/**
 * The API's idle memory (issue 22) beside its floor, a bare Fastify (hello-world.ts) started the
 * same way in the same run: bundled by the API's own build, run by the same Node with the same
 * flags, read from the API's command line. Both are read together after {@link IDLE_MS} with
 * no request, so the ratio does not depend on what else the machine held meanwhile.
 */
export async function measureIdleMemory(apiPid: number): Promise<Section> {
  const [node, ...apiArgs] = commandLine(apiPid);
  // The API's flags are its arguments before the bundle, the last one.
  const flags = apiArgs.slice(0, -1);
  const bundle = join(cacheDir, 'hello-world.js');
  await bundleApi(bundle, join(import.meta.dirname, 'hello-world.ts'));
  const floor = fork(bundle, [], { execPath: node, execArgv: flags });
  try {
    await once(floor, 'message');
    await setTimeout(IDLE_MS);
    const api = residentMemory(apiPid);
    const bare = residentMemory(floor.pid as number);
    const split = (m: typeof api) => `own ${mb(m.anon)} + files ${mb(m.file)}`;
    return {
      rows: [
        {
          figure: 'API memory idle (RSS)',
          measured: `${mb(api.rss)} (${split(api)})`,
          floor: `bare Fastify ${mb(bare.rss)} (${(api.rss / bare.rss).toFixed(2)}×)`,
          goal: '≤ 120 MB',
          note: `both ${IDLE_MS / 1000} s without a request; node ${flags.join(' ')}; floor ${split(bare)}`,
        },
      ],
      data: { idleMs: IDLE_MS, flags, apiRss: api.rss, api, floor: bare },
    };
  } finally {
    floor.disconnect();
  }
}
