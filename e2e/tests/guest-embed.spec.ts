import { createServer } from 'node:http';
import { DEMO_SHOP_ORIGIN } from '@frontdesk/api/seed';
import { expect, test } from '../support/fixtures.ts';
import { COMPANY, inspectScreen } from '../support/guest.ts';

/**
 * A company's own site, on an origin of its own (another port) that the company lists in its
 * allowedOrigins, with the embed loader's line.
 */
async function startShop(): Promise<{ url: string; close: () => void }> {
  const page = `<!doctype html><html lang="en"><head><title>Shop</title></head><body><main><h1>Our shop</h1></main>
    <script type="module" src="${process.env.FRONTDESK_URL}/embed.js" data-company="${COMPANY.aroundTheClock}" data-label="Call us"></script></body></html>`;
  const server = createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'text/html' }).end(page),
  );
  const { hostname, port } = new URL(DEMO_SHOP_ORIGIN);
  await new Promise<void>((done) => server.listen(Number(port), hostname, done));
  return { url: `${DEMO_SHOP_ORIGIN}/`, close: () => server.close() };
}

test('the embed loader puts the widget on a company’s site and tells the page its stages', async ({
  page,
}) => {
  const shop = await startShop();
  await page.goto(shop.url);
  // The loader is a module script: it runs after the page has loaded.
  await expect(page.getByRole('button', { name: 'Call us' })).toBeVisible();
  await page.evaluate(() => {
    const widget = (
      window as unknown as { Frontdesk: { on: (e: string, cb: (d: unknown) => void) => void } }
    ).Frontdesk;
    const seen: unknown[] = [];
    (window as unknown as { seenStages: unknown[] }).seenStages = seen;
    widget.on('stage', (stage) => seen.push(stage));
  });

  await page.getByRole('button', { name: 'Call us' }).click();
  const widget = page.frameLocator('iframe[title="Call us"]');
  await expect(widget.getByTestId('guest-page')).toHaveAttribute('data-stage', 'welcome');
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { seenStages: unknown[] }).seenStages))
    .toContain('welcome');
  await inspectScreen(page, 'guest-embedded');

  // Escape closes the panel and gives the focus back to the button.
  await widget.getByLabel(/Your name/).press('Escape');
  await expect(page.getByRole('dialog', { name: 'Call us' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Call us' })).toBeFocused();
  shop.close();
});
