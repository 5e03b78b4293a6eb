import { defineConfig } from '@playwright/test';
import { resolve } from 'node:path';

const artifacts = resolve(import.meta.dirname, '../artifacts/e2e');

/** Journeys over the whole running stack in Debian's Chromium with a fake camera and microphone. */
export default defineConfig({
  projects: [
    { name: 'e2e', testDir: './tests' },
    // @frontdesk/media against a Janus of its own (packages/media/test/fixtures.ts).
    {
      name: 'media',
      testDir: '../packages/media/test',
      outputDir: resolve(artifacts, '../media/results'),
    },
  ],
  globalSetup: './support/global-setup.ts',
  outputDir: resolve(artifacts, 'results'),
  // Two cores: one browser at a time keeps media timing honest.
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json', { outputFile: resolve(artifacts, 'report.json') }]],
  use: {
    baseURL: process.env.FRONTDESK_URL,
    // Headless Chromium names itself HeadlessChrome; a guest's browser does not.
    userAgent:
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      ignoreDefaultArgs: ['--headless'],
      args: [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
      ],
    },
  },
});
