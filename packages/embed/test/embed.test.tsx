import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import type { EmbedIdentify } from '@frontdesk/protocol';
import { loadFrontdesk, type Identity } from '../src/index.ts';
import { FrontdeskWidget } from '../src/react.tsx';

type Queued = { q?: unknown[][] };
const queue = () => (window as unknown as { Frontdesk?: Queued }).Frontdesk?.q ?? [];

afterEach(() => {
  delete (window as unknown as { Frontdesk?: unknown }).Frontdesk;
  document.head.replaceChildren();
  document.body.replaceChildren();
});

describe('loadFrontdesk', () => {
  it('adds the loader once and queues every call, in order, until it has loaded', () => {
    const frontdesk = loadFrontdesk('https://frontdesk.example/some/page');
    loadFrontdesk('https://frontdesk.example');
    frontdesk('boot', { company: 12, locale: 'ar', hideLauncher: true });
    frontdesk('identify', { answers: { name: 'Ada' } });
    frontdesk('open');

    const scripts = document.head.querySelectorAll('script');
    expect(scripts).toHaveLength(1);
    expect(scripts[0]?.src).toBe('https://frontdesk.example/embed.js');
    expect(scripts[0]?.type).toBe('module');
    expect(queue()).toEqual([
      ['boot', { company: 12, locale: 'ar', hideLauncher: true }],
      ['identify', { answers: { name: 'Ada' } }],
      ['open'],
    ]);
  });

  it('calls the loaded function once the loader has replaced the queue', () => {
    const frontdesk = loadFrontdesk('https://frontdesk.example');
    const calls: unknown[][] = [];
    (window as unknown as { Frontdesk: unknown }).Frontdesk = (...args: unknown[]) => {
      calls.push(args);
    };
    frontdesk('close');
    expect(calls).toEqual([['close']]);
  });

  it("takes the identity the widget's protocol takes", () => {
    expectTypeOf<Identity>().toEqualTypeOf<EmbedIdentify>();
  });
});

describe('FrontdeskWidget', () => {
  it('boots when mounted, sends its identity, and shuts down when unmounted', async () => {
    const root = createRoot(document.body.appendChild(document.createElement('div')));
    await act(async () =>
      root.render(
        <FrontdeskWidget
          frontdeskUrl="https://frontdesk.example"
          company={3}
          label="Call us"
          identity={{ token: 'payload.signature' }}
        />,
      ),
    );
    await act(async () => root.unmount());
    const commands = queue().map((call) => call[0]);
    expect(queue()[0]).toEqual(['boot', expect.objectContaining({ company: 3, label: 'Call us' })]);
    expect(commands).toContain('on');
    expect(queue()).toContainEqual(['identify', { token: 'payload.signature' }]);
    // Unmounting is no sign-out: the visitor stays known.
    expect(queue().at(-1)).toEqual(['shutdown', { keepVisitor: true }]);
  });
});

describe('the package build', () => {
  it('emits ES modules and their .d.ts with tsc alone (no network, no bundler)', () => {
    const root = resolve(import.meta.dirname, '..');
    const out = mkdtempSync(join(tmpdir(), 'frontdesk-embed-'));
    try {
      const tsc = resolve(root, '../../node_modules/typescript/bin/tsc');
      const result = spawnSync(
        process.execPath,
        [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', out],
        { encoding: 'utf8' },
      );
      expect(result.stdout + result.stderr).toBe('');
      for (const file of ['index.js', 'index.d.ts', 'react.js', 'react.d.ts']) {
        expect(existsSync(join(out, file)), file).toBe(true);
      }
      // Imports between the files name the built `.js`, as ESM needs.
      expect(readFileSync(join(out, 'react.js'), 'utf8')).toMatch(/from "\.\/index\.js"/);
      expect(readFileSync(join(out, 'index.d.ts'), 'utf8')).toContain('export type BootOptions');
      const exports = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).exports;
      expect(exports['.'].import).toBe('./dist/index.js');
      expect(exports['./react'].types).toBe('./dist/react.d.ts');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
