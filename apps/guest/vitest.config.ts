import { defineProject } from 'vitest/config';
import { messageCatalogues } from './message-catalogues.ts';

export default defineProject({
  plugins: [messageCatalogues()],
  test: {
    name: 'guest',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['src/test/setup.ts'],
  },
});
