import { resolve } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

// A p2p call's bundle need not load Janus: nothing the p2p entry imports (at run time; types
// vanish) may reach janus.ts or janus.js.
describe('the p2p entry', () => {
  it('imports nothing of Janus', async () => {
    const { metafile } = await build({
      entryPoints: [resolve(import.meta.dirname, 'index.ts')],
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'browser',
      logLevel: 'silent',
    });
    const inputs = Object.keys(metafile.inputs);
    expect(inputs.some((path) => path.endsWith('p2p/session.ts'))).toBe(true);
    expect(inputs.filter((path) => /janus|webrtc-adapter/.test(path))).toEqual([]);
  });
});
