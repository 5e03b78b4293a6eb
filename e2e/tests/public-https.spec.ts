// Public mode over real HTTPS: a whole stack of its own with Caddy on 443 and 80 in front of the
// API (inside the test's network namespace, where those ports are free), a certificate from a
// throw-away authority, and Chromium trusting that authority's key. Plain HTTP is redirected,
// the pages load over HTTPS with HSTS, /api/config hands out wss:// URLs, and the console's
// chat connects through Caddy, its refresh cookie Secure.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { makeTestCertificates, startDisposableStack, type DisposableStack } from '@frontdesk/infra';
import { likeAPerson, expect, test } from '../support/fixtures.ts';
import { AGENT } from '../support/console.ts';
import config from '../playwright.config.ts';

const HOST = 'calls.frontdesk.test';
const guestDist = resolve(import.meta.dirname, '../../apps/guest/dist');
const SITE = `https://${HOST}`;
let folder: string;
let stack: DisposableStack | undefined;
let browser: Browser;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  folder = mkdtempSync(join(tmpdir(), 'frontdesk-https-'));
  const certs = makeTestCertificates(folder, [HOST]);
  stack = await startDisposableStack({
    name: 'https',
    logLevel: 'warn',
    log: () => undefined,
    publicSite: {
      host: HOST,
      httpsPort: 443,
      httpPort: 80,
      tls: { certFile: certs.certFile, keyFile: certs.keyFile },
    },
  });
  // The suite's Chromium (playwright.config.ts), and two flags more.
  const launch = config.use?.launchOptions ?? {};
  browser = await chromium.launch({
    ...launch,
    args: [
      ...(launch.args ?? []),
      // The name resolves to this machine, as DNS would point it at the server.
      `--host-resolver-rules=MAP ${HOST} 127.0.0.1`,
      // Trust the test authority (and nothing else more than usual): a chain holding its key.
      `--ignore-certificate-errors-spki-list=${certs.caSpki}`,
    ],
  });
});

test.afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext();
  await likeAPerson(context);
  return context.newPage();
}

test('plain HTTP is redirected to HTTPS, which serves the guest page with HSTS', async () => {
  expect(stack?.publicUrl).toBe(SITE);
  const page = await newPage();
  const response = await page.goto(`http://${HOST}/?company=12`);
  expect(page.url()).toBe(`${SITE}/?company=12`);
  expect(response?.status()).toBe(200);
  expect(await response?.headerValue('strict-transport-security')).toBe('max-age=31536000');
  // The certificate is the authority's, not an error page's.
  const tls = await response?.securityDetails();
  expect(tls?.issuer).toBe('Frontdesk test authority');
  expect(tls?.subjectName).toBe(HOST);
  await expect(page.getByTestId('guest-page')).toHaveAttribute(
    'data-stage',
    /^(welcome|preview|selection)$/,
  );
  await page.context().close();
});

test('the built assets arrive compressed and cached for a year', async () => {
  const page = await newPage();
  const assets: { url: string; encoding: string | null; cache: string | null }[] = [];
  page.on('response', async (response) => {
    if (!response.url().includes('/assets/') || !response.url().endsWith('.js')) return;
    assets.push({
      url: response.url(),
      encoding: await response.headerValue('content-encoding'),
      cache: await response.headerValue('cache-control'),
    });
  });
  await page.goto(`${SITE}/?company=12`);
  await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', /.+/);
  expect(assets.length).toBeGreaterThan(0);
  for (const asset of assets) {
    // The build's brotli copy where it made one; files under 1 KiB Caddy compresses itself.
    const built = join(guestDist, new URL(asset.url).pathname);
    expect(asset.encoding, asset.url).toBe(existsSync(`${built}.br`) ? 'br' : 'zstd');
    expect(asset.cache, asset.url).toBe('public, max-age=31536000, immutable');
  }
  await page.context().close();
});

test('/api/config names wss:// URLs, and the console’s chat connects through Caddy', async () => {
  const page = await newPage();
  await page.goto(`${SITE}/console/`);
  const config = (await page.evaluate(async () => (await fetch('/api/config')).json())) as {
    data: { xmppWebsocketUrl: string; janusWebsocketUrl: string };
  };
  expect(config.data.xmppWebsocketUrl).toBe(`wss://${HOST}/xmpp-websocket`);
  expect(config.data.janusWebsocketUrl).toBe(`wss://${HOST}/janus-ws`);
  await page.getByLabel('E-mail').fill(AGENT.admin);
  await page.getByLabel('Password').fill('frontdesk-demo');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('workspace')).toHaveAttribute('data-chat', 'connected');
  // Through Caddy the request is HTTPS, so the refresh cookie is Secure (decision 0024); a reload
  // resumes the sign-in from it.
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name === 'frontdesk_refresh')).toMatchObject({
    secure: true,
    httpOnly: true,
    sameSite: 'Strict',
    path: '/api/auth/refresh',
  });
  await page.reload();
  await expect(page.getByTestId('workspace')).toHaveAttribute('data-chat', 'connected');
  await expect(page.getByLabel('E-mail')).toHaveCount(0);
  await page.context().close();
});
