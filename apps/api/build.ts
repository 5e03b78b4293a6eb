// The API's production build: one ESM file, `dist/server.js`, that plain `node` runs without a
// TypeScript loader (`npm run build -w apps/api`; `npm start` rebuilds it when a source changed,
// infra/src/build-api.ts). Only our own code is bundled: the workspace packages are TypeScript
// that Node cannot load, while every npm package stays an import resolved from node_modules at
// run time, exactly as under tsx (no copies of native or worker files to keep in step).
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { build, type Plugin } from 'esbuild';

const root = import.meta.dirname;

/** What `npm start` runs: beside `src/`, so `config.ts`'s paths from its own folder still hold. */
export const API_BUNDLE = join(root, 'dist', 'server.js');

/** Every bare import but our workspace packages stays external (see the top of this file). */
const npmPackagesExternal: Plugin = {
  name: 'npm-packages-external',
  setup(on) {
    on.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@frontdesk/') ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * Bundles `src/server.ts` into `outfile` (default {@link API_BUNDLE}) with a source map, so
 * stack traces under `node --enable-source-maps` name the TypeScript lines. The files are
 * written beside the target and renamed over it, so a server starting meanwhile (or a second
 * build, as parallel test files may run) never reads half a file. `entry` is another server
 * built the same way: the benchmark's bare Fastify, whose memory is the API's floor.
 */
export async function bundleApi(
  outfile: string = API_BUNDLE,
  entry: string = join(root, 'src/server.ts'),
): Promise<void> {
  const result = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    sourcemap: 'linked',
    // Class names appear in logs (`err.type`) and errors; keep them as written.
    keepNames: true,
    plugins: [npmPackagesExternal],
    write: false,
    logLevel: 'silent',
  });
  if (result.errors.length > 0) throw new Error(result.errors.map((e) => e.text).join('\n'));
  const temporary = `.${process.pid}-${Date.now()}.tmp`;
  await mkdir(dirname(outfile), { recursive: true });
  const written = await Promise.all(
    result.outputFiles.map(async (file) => {
      const next = join(dirname(file.path), `.${basename(file.path)}${temporary}`);
      await writeFile(next, file.contents);
      return { next, path: file.path };
    }),
  );
  try {
    // The map first: a server that starts between the two renames finds the new map's lines.
    const mapFirst = [...written].sort(
      (a, b) => Number(b.path.endsWith('.map')) - Number(a.path.endsWith('.map')),
    );
    for (const { next, path } of mapFirst) {
      await rename(next, path);
    }
  } catch (error) {
    await Promise.all(written.map(({ next }) => rm(next, { force: true })));
    throw error;
  }
}

if (process.argv[1] === import.meta.filename) {
  const started = performance.now();
  await bundleApi();
  console.log(`Built ${API_BUNDLE} in ${Math.round(performance.now() - started)} ms.`);
}
