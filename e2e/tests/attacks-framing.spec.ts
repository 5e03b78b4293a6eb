import { createServer } from 'node:http';
import type { Page } from '@playwright/test';
import { DEMO_SHOP_ORIGIN } from '@frontdesk/api/seed';
import { expect, test } from '../support/fixtures.ts';
import { AGENT, signIn } from '../support/console.ts';
import { COMPANY } from '../support/guest.ts';

/** A site on an origin of its own that puts `src` in a frame: the attacker's, or a company's. */
async function framingSite(origin: string, src: string) {
  const html = `<!doctype html><html lang="en"><head><title>Framing site</title></head><body>
    <iframe id="victim" title="victim" src="${src}" width="800" height="600"></iframe></body></html>`;
  const server = createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'text/html' }).end(html),
  );
  const { hostname, port } = new URL(origin);
  await new Promise<void>((done) => server.listen(Number(port), hostname, done));
  return { url: `${origin}/`, close: () => server.close() };
}

/** CSP reports of a page: what the browser refused, as the page's console says it. */
function cspMessages(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) seen.push(message.text());
  });
  return seen;
}

// Another port on loopback is another origin, and not one any company allows.
const ATTACKER_ORIGIN = 'http://127.0.0.1:4181';
const base = () => process.env.FRONTDESK_URL ?? '';

test('a site that frames the console gets nothing of it', async ({ page }) => {
  const seen = cspMessages(page);
  const site = await framingSite(ATTACKER_ORIGIN, `${base()}/console/`);
  try {
    await page.goto(site.url);
    await expect.poll(() => seen.join('\n')).toMatch(/frame-ancestors 'none'/);
    const frame = page.frameLocator('#victim');
    await expect(frame.getByTestId('console-page')).toHaveCount(0);
    await expect(frame.getByLabel('Password')).toHaveCount(0);
  } finally {
    site.close();
  }
});

test('only the sites a company allows may frame its guest page', async ({ page }) => {
  const guestUrl = `${base()}/?company=${COMPANY.aroundTheClock}`;
  const seen = cspMessages(page);
  const attacker = await framingSite(ATTACKER_ORIGIN, guestUrl);
  try {
    await page.goto(attacker.url);
    await expect.poll(() => seen.join('\n')).toMatch(/frame-ancestors/);
    await expect(page.frameLocator('#victim').getByTestId('guest-page')).toHaveCount(0);
  } finally {
    attacker.close();
  }
  // The company's own site (seeded in its allowedOrigins) shows the widget.
  const shop = await framingSite(DEMO_SHOP_ORIGIN, guestUrl);
  try {
    await page.goto(shop.url);
    await expect(page.frameLocator('#victim').getByTestId('guest-page')).toHaveAttribute(
      'data-stage',
      'welcome',
    );
  } finally {
    shop.close();
  }
});

test('a guest visit and an agent’s console break none of their own policy', async ({
  page,
  browser,
}) => {
  const seen = cspMessages(page);
  await page.goto(`/?company=${COMPANY.arabic}`);
  await expect(page.getByTestId('guest-page')).toHaveAttribute(
    'data-stage',
    /^(welcome|preview|selection)$/,
  );
  await page.goto(`/?company=${COMPANY.aroundTheClock}`);
  await expect(page.getByTestId('guest-page')).toHaveAttribute('data-stage', 'welcome');
  // The branded page's inline mark ran (its script hash is in the policy).
  expect(await page.evaluate(() => performance.getEntriesByName('frontdesk:branded').length)).toBe(
    1,
  );
  const agent = await (await browser.newContext()).newPage();
  const agentSeen = cspMessages(agent);
  await signIn(agent, AGENT.admin);
  await expect(agent.getByTestId('dependency-database')).toHaveAttribute('data-status', 'up');
  expect([...seen, ...agentSeen]).toEqual([]);
  await agent.context().close();
});
