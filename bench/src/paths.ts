import { resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '../..');
/** Made once and reused (git-ignored): the pre-encoded media of the Janus load generator. */
export const cacheDir = resolve(repoRoot, 'bench/.cache');
export const resultsDir = resolve(repoRoot, 'bench/results');
