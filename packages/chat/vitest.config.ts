import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'chat',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Each integration file starts its own ejabberd (~2 s) and waits on real reconnects.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
