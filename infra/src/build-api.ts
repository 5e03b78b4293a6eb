import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { newestMtime } from './build-apps.ts';

/** The compiled API that the stack runs (apps/api/build.ts makes it). */
export const apiBundle = (repoRoot: string) => join(repoRoot, 'apps/api/dist/server.js');

/** Where {@link buildApiIfStale} looks for changes: what the bundle is made from. */
const SOURCES = [
  'apps/api/src',
  'apps/api/build.ts',
  'apps/api/package.json',
  'packages/protocol',
  'packages/chat',
  'packages/media',
];

/**
 * Bundles the API (apps/api/build.ts) when the bundle is missing or older than a source it is
 * made from, so the stack runs it with plain `node` and no TypeScript loader: about a quarter
 * less CPU to start (docs/operations.md, "What `npm start` does"). A build takes a fraction of
 * a second; esbuild is loaded only then.
 */
export async function buildApiIfStale(
  repoRoot: string,
  log: (line: string) => void,
): Promise<string> {
  const bundle = apiBundle(repoRoot);
  const builtAt = existsSync(bundle) ? statSync(bundle).mtimeMs : 0;
  const sourcesAt = Math.max(...SOURCES.map((path) => newestMtime(join(repoRoot, path))));
  if (builtAt > 0 && builtAt >= sourcesAt) return bundle;
  log('Building apps/api…');
  const { bundleApi } = await import('@frontdesk/api/build');
  await bundleApi(bundle);
  return bundle;
}
