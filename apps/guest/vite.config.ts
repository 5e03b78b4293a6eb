import { resolve } from 'node:path';
import { build, defineConfig, type LogLevel, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { formatterWithoutParser, messageCatalogues } from '../../build/message-catalogues.ts';
import { zodWithoutJsonSchema } from './zod-without-json-schema.ts';

const root = import.meta.dirname;
const catalogues = { app: 'guest', folder: resolve(root, 'src/i18n/catalogues') };
/** SECURITY: maps for error reports only, never linked from or served with the bundles. */
const sourcemap = 'hidden';
/**
 * Sentry's build flags (its tree-shaking guide): the SDK's own debug logging, which we never
 * switch on, and the session replay's recording of iframes and shadow roots, which the guest
 * page does not have. Left out of the error-reporting chunk.
 */
const define = {
  __SENTRY_DEBUG__: 'false',
  __RRWEB_EXCLUDE_IFRAME__: 'true',
  __RRWEB_EXCLUDE_SHADOW_DOM__: 'true',
};

/**
 * The admin's live preview (`preview.html`, framed by the console) is built on its own once the
 * guest app is, into the same folder. Built as a third entry of one build it would share chunks
 * with the guest page, which would then load its code cut into more files: heavier before a
 * call (scripts/budgets.mjs). Apart, the guest page's files are what they would be without it.
 */
function livePreviewBuild(): Plugin {
  let outDir = 'dist';
  let logLevel: LogLevel | undefined;
  return {
    name: 'frontdesk:live-preview',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
      logLevel = config.logLevel;
    },
    async closeBundle() {
      await build({
        configFile: false,
        root,
        base: '/',
        logLevel,
        plugins: [zodWithoutJsonSchema(), react(), messageCatalogues(catalogues)],
        resolve: { alias: [formatterWithoutParser] },
        define,
        build: {
          outDir,
          emptyOutDir: false,
          sourcemap,
          rollupOptions: {
            input: { preview: resolve(root, 'preview.html') },
            // The guest page loads its later pages lazily; the preview may show any of them at
            // once, and imports some directly.
            checks: { ineffectiveDynamicImport: false },
          },
        },
      });
    },
  };
}

export default defineConfig({
  plugins: [zodWithoutJsonSchema(), react(), messageCatalogues(catalogues), livePreviewBuild()],
  resolve: { alias: [formatterWithoutParser] },
  define,
  base: '/',
  build: {
    outDir: 'dist',
    sourcemap,
    rollupOptions: {
      // The embed loader is a second entry with a stable name, for companies' sites to include.
      input: {
        main: resolve(root, 'index.html'),
        embed: resolve(root, 'src/embed/loader.ts'),
      },
      output: {
        entryFileNames: (chunk) =>
          chunk.name === 'embed' ? 'embed.js' : 'assets/[name]-[hash].js',
        // Everything the page runs before its first screen in one file, not cut into the pieces
        // the lazy chunks happen to share: each piece is compressed alone and names what it
        // imports, about 3 KB gz more over the same code (decision 0012, "What loads when"). The
        // embed loader imports nothing and stays apart.
        codeSplitting: {
          groups: [
            {
              name: 'main',
              tags: ['$initial'],
              test: (id) => !id.endsWith('/src/embed/loader.ts'),
            },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
});
