import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companySettingsSchema, healthSchema } from '@frontdesk/protocol';
import { hashPassword, verifyPassword } from '../../src/auth/password.ts';
import { DEMO_LOGINS, DEMO_SHOP_ORIGIN, SEEDED_COMPANY, seedOnStart } from '../../src/db/seed.ts';
import { buildTestApp, loginGuest, loginStaff, type TestApp } from '../helper.ts';

/** Built apps in the shape Vite leaves them, with the source maps `sourcemap: 'hidden'` writes. */
async function builtApps(): Promise<{ guest: string; console: string; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'frontdesk-web-'));
  const page = (title: string) =>
    `<!doctype html>\n<html lang="en" dir="ltr">\n<head><title>${title}</title>` +
    `<script type="module" src="/assets/main.js"></script></head><body><div id="root"></div></body></html>`;
  for (const app of ['guest', 'console']) {
    await mkdir(join(dir, app, 'assets'), { recursive: true });
    await writeFile(join(dir, app, 'index.html'), page(app));
    await writeFile(join(dir, app, 'assets', 'main.js'), 'console.log(1);\n');
    await writeFile(join(dir, app, 'assets', 'main.js.map'), '{"version":3,"sources":["x.ts"]}');
  }
  await writeFile(join(dir, 'guest', 'embed.js'), 'export {};\n');
  await writeFile(join(dir, 'guest', 'preview.html'), page('preview'));
  return { guest: join(dir, 'guest'), console: join(dir, 'console'), dir };
}

const directives = (policy: string | undefined) =>
  new Map(
    (policy ?? '').split(';').map((d) => {
      const [name = '', ...sources] = d.trim().split(/\s+/);
      return [name, sources];
    }),
  );

/**
 * Attack: a hostile site frames the console or the guest page to trick clicks (clickjacking),
 * injected markup runs script, a page is sniffed as another type, the health check and the
 * source maps tell an attacker the internals, the published demo logins open a reachable
 * server. Played through HTTP as a browser or a scanner would see it.
 */
describe('attack: the browser-facing surface', () => {
  let t: TestApp;
  let apps: Awaited<ReturnType<typeof builtApps>>;
  beforeAll(async () => {
    apps = await builtApps();
    t = await buildTestApp({ GUEST_APP_DIR: apps.guest, CONSOLE_APP_DIR: apps.console });
  });
  afterAll(async () => {
    await t.close();
    await rm(apps.dir, { recursive: true, force: true });
  });
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  it('the console may be framed by nobody', async () => {
    for (const url of ['/console/', '/console/some/client/route']) {
      const response = await get(url);
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('<title>console</title>');
      const csp = directives(response.headers['content-security-policy'] as string);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(response.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('a page revalidated (304) keeps its policy', async () => {
    const first = await get('/console/');
    const again = await get('/console/', { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.headers['content-security-policy']).toBe(first.headers['content-security-policy']);
  });

  it('the guest page may be framed by its own origin and the sites its company allows', async () => {
    const plain = await get('/');
    expect(plain.statusCode).toBe(200);
    expect(
      directives(plain.headers['content-security-policy'] as string).get('frame-ancestors'),
    ).toEqual(["'self'"]);
    expect(plain.headers['x-frame-options']).toBe('SAMEORIGIN');

    for (const url of [
      `/?company=${SEEDED_COMPANY.aroundTheClock}&service=Widget`,
      `/some/route?company=${SEEDED_COMPANY.aroundTheClock}`,
    ]) {
      const embedded = await get(url);
      expect(embedded.statusCode).toBe(200);
      const csp = directives(embedded.headers['content-security-policy'] as string);
      expect(csp.get('frame-ancestors')).toEqual(["'self'", DEMO_SHOP_ORIGIN]);
      // X-Frame-Options cannot name the shop; browsers obey frame-ancestors instead.
      expect(embedded.headers['x-frame-options']).toBeUndefined();
    }
  });

  it('the admin’s live preview may be framed by its own origin only, whatever a company allows', async () => {
    for (const url of ['/preview.html', `/preview.html?company=${SEEDED_COMPANY.aroundTheClock}`]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain('<title>preview</title>');
      const csp = directives(response.headers['content-security-policy'] as string);
      expect(csp.get('frame-ancestors'), url).toEqual(["'self'"]);
      expect(csp.get('frame-ancestors'), url).not.toContain(DEMO_SHOP_ORIGIN);
      expect(response.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      // The guest app's own script policy: its files, no inline code.
      expect(csp.get('script-src'), url).toEqual(["'self'"]);
      expect(csp.get('object-src'), url).toEqual(["'none'"]);
    }
    const first = await get('/preview.html');
    const again = await get('/preview.html', { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.headers['content-security-policy']).toBe(first.headers['content-security-policy']);
  });

  it('no inline script runs on the guest page but the branded page’s own, by hash', async () => {
    const response = await get(`/?company=${SEEDED_COMPANY.arabic}`);
    const csp = directives(response.headers['content-security-policy'] as string);
    const scripts = csp.get('script-src') ?? [];
    expect(scripts).toContain("'self'");
    expect(scripts.join(' ')).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(scripts.filter((s) => s.startsWith("'sha256-"))).toHaveLength(1);
    // The branded <html style> is allowed by its hash only.
    expect(csp.get('style-src')?.join(' ')).not.toContain('unsafe-inline');
    expect(csp.get('style-src')).toContain("'unsafe-hashes'");
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'blob:', 'https:']);
    expect(csp.get('media-src')).toEqual(["'self'", 'blob:', 'mediastream:']);
    expect(csp.get('connect-src')).toEqual(["'self'", 'ws://localhost:80']);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('API answers, the embed loader and the docs carry a policy too', async () => {
    const api = await get(`/api/company/${SEEDED_COMPANY.demo}`);
    expect(api.statusCode).toBe(200);
    expect(api.headers['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    expect(api.headers['x-content-type-options']).toBe('nosniff');
    const embed = await get('/embed.js');
    expect(embed.statusCode).toBe(200);
    expect(embed.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(embed.headers['access-control-allow-origin']).toBe('*');
    const docs = await get('/api/docs/');
    expect(docs.statusCode).toBe(200);
    const csp = directives(docs.headers['content-security-policy'] as string);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('HSTS only when the request came over TLS', async () => {
    const plain = await get('/');
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    // No TRUST_PROXY here: a forged X-Forwarded-Proto is not believed.
    const forged = await get('/', { 'x-forwarded-proto': 'https' });
    expect(forged.headers['strict-transport-security']).toBeUndefined();
    const proxied = await buildTestApp({ TRUST_PROXY: '127.0.0.1' });
    try {
      const tls = await proxied.app.inject({
        method: 'GET',
        url: '/api/company/5',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(tls.headers['strict-transport-security']).toBe('max-age=31536000');
    } finally {
      await proxied.close();
    }
  });

  it('source maps are never served', async () => {
    const script = await get('/assets/main.js');
    expect(script.statusCode).toBe(200);
    for (const url of ['/assets/main.js.map', '/console/assets/main.js.map', '/nothing.js']) {
      const map = await get(url);
      expect(map.statusCode).toBe(404);
      expect(map.body).not.toContain('"sources"');
      expect(map.body).not.toContain('<html');
    }
  });

  it('the public health check says up or down, nothing of the internals', async () => {
    const outsider = await get('/api/health');
    expect([200, 503]).toContain(outsider.statusCode);
    expect(Object.keys(outsider.json() as object)).toEqual(['status']);
    // A guest's token is no staff token.
    const guest = await loginGuest(t.app, SEEDED_COMPANY.demo);
    const asGuest = await get('/api/health', { authorization: `Bearer ${guest.token}` });
    expect(asGuest.statusCode).toBe(403);
    const forged = await get('/api/health', { authorization: 'Bearer not-a-token' });
    expect(forged.statusCode).toBe(401);
    // Staff see each dependency.
    const token = await loginStaff(t.app, 'ada@frontdesk.demo');
    const staff = await get('/api/health', { authorization: `Bearer ${token}` });
    expect(healthSchema.parse(staff.json()).dependencies?.database.status).toBe('up');
  });

  it('company details name the allowed origins (not secret: the widget needs them)', async () => {
    const response = await get(`/api/company/${SEEDED_COMPANY.aroundTheClock}`);
    expect(response.json().data.allowedOrigins).toEqual([DEMO_SHOP_ORIGIN]);
  });
});

describe('attack: allowedOrigins that would let any site in', () => {
  it.each([
    '*',
    'https://*.example',
    'https://shop.example/',
    'https://shop.example/path',
    'javascript:alert(1)',
    'null',
    'shop.example',
    'HTTPS://Shop.Example',
    'ftp://shop.example',
  ])('refuses %s, naming the field', (origin) => {
    const parsed = companySettingsSchema.safeParse({ allowedOrigins: [origin] });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['allowedOrigins', 0]);
  });

  it.each(['https://shop.example', 'http://localhost:8000', 'https://[::1]:8443'])(
    'accepts %s',
    (origin) => {
      expect(companySettingsSchema.parse({ allowedOrigins: [origin] }).allowedOrigins).toEqual([
        origin,
      ]);
    },
  );
});

describe('attack: the published demo logins on a reachable server', () => {
  const startedOn = (env: Record<string, string>) =>
    buildTestApp(env, {
      seed: (db, config) => seedOnStart(db, config, { SEED_DEMO: 'true', ...env }),
    });
  const signIn = (t: TestApp) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      body: { email: 'admin@frontdesk.demo', password: DEMO_LOGINS[0]?.password },
    });

  it('are not created when HOST is not loopback', async () => {
    const t = await startedOn({ HOST: '0.0.0.0' });
    try {
      expect((await signIn(t)).statusCode).toBe(401);
      // The companies are there all the same.
      expect((await t.app.inject({ method: 'GET', url: '/api/company/5' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('are created on loopback, or anywhere with FRONTDESK_DEMO=1', async () => {
    const envs: Record<string, string>[] = [
      { HOST: '127.0.0.1' },
      { HOST: '0.0.0.0', FRONTDESK_DEMO: '1' },
    ];
    for (const env of envs) {
      const t = await startedOn(env);
      try {
        expect((await signIn(t)).statusCode).toBe(200);
      } finally {
        await t.close();
      }
    }
  });
});

describe('passwords', () => {
  it('are hashed at OWASP’s scrypt cost, and hashes of the old cost still verify', async () => {
    const hash = await hashPassword('correct horse');
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('wrong horse', hash)).toBe(false);
    // Made with N = 2^14 before the change (scrypt$16384$8$1$salt$key).
    const old =
      'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$' +
      (await import('node:crypto'))
        .scryptSync('correct horse', Buffer.alloc(16), 64, { N: 16384, r: 8, p: 1 })
        .toString('base64url');
    expect(await verifyPassword('correct horse', old)).toBe(true);
    // A stored hash asking for more memory than the cap is refused, not run.
    expect(await verifyPassword('x', 'scrypt$4194304$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAA')).toBe(false);
  });
});
