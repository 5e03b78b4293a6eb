import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  base: '/console/',
  // SECURITY: maps for error reports only, never linked from or served with the bundles.
  build: { outDir: 'dist', sourcemap: 'hidden' },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
});
