// The built apps' files: hashed assets cached for a year, pages always revalidated, and the
// build's precompressed copies sent to browsers that accept them.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helper.ts';

const folder = mkdtempSync(join(tmpdir(), 'frontdesk-static-'));
const guest = join(folder, 'guest');
const consoleApp = join(folder, 'console');
const script = `export const answer = ${JSON.stringify('forty-two '.repeat(300))};\n`;
const page = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body>${'<p>Frontdesk</p>'.repeat(100)}</body></html>`;

/** A file and the `.br` and `.gz` copies the build writes beside it (infra/src/build-apps.ts). */
function writeBuilt(path: string, content: string) {
  writeFileSync(path, content);
  writeFileSync(`${path}.br`, brotliCompressSync(content));
  writeFileSync(`${path}.gz`, gzipSync(content));
}

let t: TestApp;
beforeAll(async () => {
  for (const app of [guest, consoleApp]) mkdirSync(join(app, 'assets'), { recursive: true });
  writeBuilt(join(guest, 'index.html'), page('Guest'));
  writeBuilt(join(guest, 'assets', 'index-Ab12Cd34.js'), script);
  writeBuilt(join(guest, 'embed.js'), script);
  // Under 1 KiB: the build leaves it uncompressed.
  writeFileSync(join(guest, 'assets', 'tiny-Ef56Gh78.css'), 'body{margin:0}');
  writeBuilt(join(consoleApp, 'index.html'), page('Console'));
  t = await buildTestApp({ GUEST_APP_DIR: guest, CONSOLE_APP_DIR: consoleApp });
});
afterAll(async () => {
  await t.close();
  rmSync(folder, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  });

const YEAR_IMMUTABLE = 'public, max-age=31536000, immutable';

describe('hashed assets', () => {
  it('are sent as the brotli copy to browsers that accept it, cached for a year', async () => {
    const reply = await get('/assets/index-Ab12Cd34.js', 'gzip, deflate, br, zstd');
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-encoding']).toBe('br');
    expect(reply.headers['content-type']).toMatch(/javascript/);
    expect(reply.headers['cache-control']).toBe(YEAR_IMMUTABLE);
    expect(reply.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(reply.rawPayload).toString()).toBe(script);
    expect(reply.rawPayload.length).toBeLessThan(script.length / 5);
  });

  it('as the gzip copy to browsers without brotli, and as they are to the rest', async () => {
    const gzipped = await get('/assets/index-Ab12Cd34.js', 'gzip');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(script);
    const plain = await get('/assets/index-Ab12Cd34.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    // A shared cache must not hand the plain answer to a browser that takes brotli.
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    for (const reply of [gzipped, plain]) {
      expect(reply.headers['cache-control']).toBe(YEAR_IMMUTABLE);
    }
  });

  it('without compressed copies are sent as they are', async () => {
    const reply = await get('/assets/tiny-Ef56Gh78.css', 'br, gzip');
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-encoding']).toBeUndefined();
    expect(reply.headers['cache-control']).toBe(YEAR_IMMUTABLE);
  });

  it('have no address of their own for the compressed copies or source maps', async () => {
    for (const url of ['/assets/index-Ab12Cd34.js.br', '/assets/index-Ab12Cd34.js.gz']) {
      expect((await get(url, 'br')).statusCode).toBe(404);
    }
  });
});

describe('pages and unhashed files', () => {
  it('the console page, at its root and its client routes, is compressed and revalidated', async () => {
    for (const url of ['/console/', '/console/calls/some-call']) {
      const reply = await get(url, 'br');
      expect(reply.statusCode, url).toBe(200);
      expect(reply.headers['cache-control'], url).toBe('no-cache');
      expect(brotliDecompressSync(reply.rawPayload).toString(), url).toContain('Console');
    }
  });

  it('the embed loader is compressed, revalidated and loadable from other sites', async () => {
    const reply = await get('/embed.js', 'br');
    expect(reply.headers['content-encoding']).toBe('br');
    expect(reply.headers['cache-control']).toBe('no-cache');
    expect(reply.headers['access-control-allow-origin']).toBe('*');
  });

  it('the guest page, branded per company, is revalidated', async () => {
    const reply = await get('/', 'br');
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['cache-control']).toBe('no-cache');
    expect(reply.body).toContain('<title>Frontdesk Demo</title>');
  });
});
