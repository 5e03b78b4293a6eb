import { defineConfig } from '@playwright/test';
import { resolve } from 'node:path';
import { loadTopology } from '@frontdesk/infra';
import base from '../playwright.config.ts';

const { loadBalancer: lb, ports } = loadTopology();

const artifacts = resolve(import.meta.dirname, '../../artifacts/e2e-cluster');

/**
 * The scale-out journey (issue 21) on the simulated cluster (decision 0041): the same browser as
 * the other journeys, run inside the browsers' node, in front of haproxy's address.
 */
export default defineConfig({
  ...base,
  projects: [{ name: 'cluster', testDir: '.' }],
  globalSetup: './global-setup.ts',
  outputDir: resolve(artifacts, 'results'),
  timeout: 240_000,
  // Seven servers and up to six call pages share the machine's two cores: a page opened while
  // the calls recover from a lost node can take longer than the suite's 15 s to sign in or hear
  // a call end (seen: a console's chat still connecting after 15 s). What the journeys assert stays
  // the same; only how long a step may take.
  expect: { timeout: 30_000 },
  reporter: [['list'], ['json', { outputFile: resolve(artifacts, 'report.json') }]],
  use: {
    ...base.use,
    launchOptions: {
      ...base.use?.launchOptions,
      executablePath: resolve(import.meta.dirname, 'chromium-in-browsers-node.sh'),
      // Camera and microphone need a secure context: haproxy's plain-HTTP address counts as one
      // here, as https:// does for a visitor (public mode puts Caddy in front).
      args: [
        ...(base.use?.launchOptions?.args ?? []),
        `--unsafely-treat-insecure-origin-as-secure=http://${lb.address}:${ports.http}`,
      ],
    },
  },
});
