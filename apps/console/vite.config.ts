import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { formatterWithoutParser, messageCatalogues } from '../../build/message-catalogues.ts';

export default defineConfig({
  // The sentences are ICU catalogues the build parses, as the guest app's are (decision 0029).
  plugins: [
    react(),
    messageCatalogues({
      app: 'console',
      folder: resolve(import.meta.dirname, 'src/i18n/catalogues'),
    }),
  ],
  resolve: { alias: [formatterWithoutParser] },
  base: '/console/',
  // SECURITY: maps for error reports only, never linked from or served with the bundles.
  build: { outDir: 'dist', sourcemap: 'hidden' },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
});
