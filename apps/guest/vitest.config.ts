import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'guest',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
  },
});
