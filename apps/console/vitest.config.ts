import { resolve } from 'node:path';
import { defineProject } from 'vitest/config';
import { messageCatalogues } from '../../build/message-catalogues.ts';

export default defineProject({
  plugins: [
    messageCatalogues({
      app: 'console',
      folder: resolve(import.meta.dirname, 'src/i18n/catalogues'),
    }),
  ],
  test: {
    name: 'console',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
  },
});
