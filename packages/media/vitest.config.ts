import { defineProject } from 'vitest/config';

// Node tests only: pure logic and the server-side room module against a real Janus. The
// browser side runs in Chromium under Playwright (test/*.spec.ts).
export default defineProject({
  test: {
    name: 'media',
    include: ['src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
