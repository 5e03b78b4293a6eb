import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'embed',
    include: ['test/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    // One test builds the package with tsc (a few seconds on a busy machine).
    testTimeout: 60_000,
  },
});
