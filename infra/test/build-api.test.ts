// The production builds: the API bundled into plain JavaScript that `node` runs without a
// TypeScript loader, and the apps' files compressed once at build time.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from '../src/build-apps.ts';
import { apiBundle, buildApiIfStale } from '../src/build-api.ts';
import { machineDatabaseUrl } from '../src/disposable-stack.ts';
import { freePort } from '../src/process.ts';
import { tempDir } from './helpers.ts';

const repoRoot = resolve(import.meta.dirname, '../..');
let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await tempDir('frontdesk-build-');
});
afterAll(() => dir?.remove());

describe('precompress', () => {
  it('writes .br and .gz copies of text files worth it, and nothing else', () => {
    const app = join(dir.path, 'app');
    mkdirSync(join(app, 'assets'), { recursive: true });
    const script = `console.log(${JSON.stringify('frontdesk '.repeat(400))});`;
    writeFileSync(join(app, 'assets', 'index-abc.js'), script);
    writeFileSync(join(app, 'assets', 'small-abc.css'), 'body{margin:0}');
    writeFileSync(join(app, 'assets', 'photo-abc.png'), randomBytes(4096));
    // Random bytes do not compress: a copy would only cost space.
    writeFileSync(join(app, 'assets', 'noise-abc.js'), randomBytes(4096).toString('base64'));
    precompress(app);
    const file = join(app, 'assets', 'index-abc.js');
    expect(brotliDecompressSync(readFileSync(`${file}.br`)).toString()).toBe(script);
    expect(gunzipSync(readFileSync(`${file}.gz`)).toString()).toBe(script);
    for (const skipped of ['small-abc.css', 'photo-abc.png']) {
      expect(() => statSync(join(app, 'assets', `${skipped}.br`)), skipped).toThrow();
    }
    // base64 of noise still shrinks by a quarter (6 of 8 bits carry it), so it is kept.
    expect(statSync(join(app, 'assets', 'noise-abc.js.br')).size).toBeLessThan(4096 * 1.34 * 0.9);
  });
});

describe('buildApiIfStale', () => {
  it('bundles when the bundle is missing, then leaves a fresh one alone', async () => {
    // A folder with no sources of its own: its bundle is stale only while it is missing.
    const lines: string[] = [];
    const bundle = await buildApiIfStale(dir.path, (line) => lines.push(line));
    expect(bundle).toBe(apiBundle(dir.path));
    const builtAt = statSync(bundle).mtimeMs;
    expect(lines).toEqual(['Building apps/api…']);
    await buildApiIfStale(dir.path, (line) => lines.push(line));
    expect(statSync(bundle).mtimeMs).toBe(builtAt);
    expect(lines).toHaveLength(1);
    // Our code is inside; npm packages stay imports resolved at run time.
    const code = readFileSync(bundle, 'utf8');
    expect(code).toContain('apps/api/src/server.ts');
    expect(code).toMatch(/^import Fastify from "fastify";$/m);
    expect(code).not.toMatch(/from "@frontdesk\//);
    expect(readFileSync(`${bundle}.map`, 'utf8')).toContain('"sources"');
  });
});

describe('the built API', () => {
  const schema = `build_${randomBytes(6).toString('hex')}`;
  let server: ChildProcess | undefined;
  let output = '';

  afterAll(async () => {
    server?.kill('SIGTERM');
    if (server && server.exitCode === null) await new Promise((done) => server?.once('exit', done));
    const client = new pg.Client({ connectionString: machineDatabaseUrl });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  });

  it('runs under plain node and answers /livez, /readyz and /api/health', async () => {
    const bundle = await buildApiIfStale(repoRoot, () => undefined);
    const port = await freePort();
    const secret = (bytes: number) => randomBytes(bytes).toString('base64url');
    const started = Date.now();
    server = spawn(process.execPath, ['--enable-source-maps', bundle], {
      cwd: dir.path,
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: machineDatabaseUrl,
        DATABASE_SCHEMA: schema,
        FRONTDESK_DATA_DIR: join(dir.path, 'data'),
        API_TOKEN_SECRET: secret(32),
        GUEST_FINGERPRINT_KEY: secret(32),
        XMPP_JWT_SECRET: secret(32),
        JANUS_TOKEN_SECRET: secret(24),
        JANUS_ADMIN_KEY: secret(24),
        // No chat or media server: health reports them down, and with no company in the new
        // schema there are no rooms to set up.
        XMPP_ADMIN_URL: 'http://127.0.0.1:9/api',
        JANUS_HTTP_URL: 'http://127.0.0.1:9/janus',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    let live: Response | undefined;
    while (!live?.ok) {
      expect(server.exitCode, output).toBeNull();
      expect(Date.now() - started, output).toBeLessThan(50_000);
      await new Promise((done) => setTimeout(done, 100));
      live = await fetch(`http://127.0.0.1:${port}/livez`).catch(() => undefined);
    }
    expect(await live.json()).toEqual({ status: 'alive' });
    // PostgreSQL answers; the chat and media servers do not exist here.
    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(health.status).toBe(503);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', dependencies: { database: 'up' } });
    // Plain node: no TypeScript loader in the process.
    const args = readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0');
    expect(args.join(' ')).not.toContain('tsx');
  }, 60_000);
});
