import { resolve } from 'node:path';
import { defineProject } from 'vitest/config';
import { messageCatalogues } from '../../build/message-catalogues.ts';

// The runtime over a small app's catalogues, compiled by the apps' own build step.
export default defineProject({
  plugins: [
    messageCatalogues({ app: 'messages', folder: resolve(import.meta.dirname, 'test/catalogues') }),
  ],
  test: {
    name: 'messages',
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});
