import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'api',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    // Set-up starts Janus or ejabberd and hashes the demo passwords at OWASP's cost (~0.8 s each).
    hookTimeout: 180_000,
  },
});
