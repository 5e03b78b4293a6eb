import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { Page } from '@playwright/test';
import { DEMO_SHOP_ORIGIN } from '@frontdesk/api/seed';
import { adminRoutes, routes } from '@frontdesk/protocol';
import { AGENT, agentPage, api } from '../support/console.ts';
import { queryRows } from '../support/db.ts';
import { expect, test } from '../support/fixtures.ts';
import { COMPANY, inspectScreen } from '../support/guest.ts';

/**
 * The embed on companies' own sites (issue 18 item 6, decision 0021, docs/embed.md): a shop on an
 * origin of its own that the company lists in allowedOrigins, and one that it does not.
 */
const SNIPPET = (calls: string) => `<script>
(function(w,d,u){var f=w.Frontdesk=w.Frontdesk||function(){(f.q=f.q||[]).push(arguments)};
var s=d.createElement('script');s.type='module';s.src=u;d.head.appendChild(s)})
(window,document,'${process.env.FRONTDESK_URL}/embed.js');
${calls}
</script>`;

/** A site at `origin` whose page at each path has `body(path)` (the shop's pages, as a visitor walks them). */
async function startSite(origin: string, body: string | ((path: string) => string)) {
  const page = (path: string) =>
    `<!doctype html><html lang="en"><head><title>Shop</title></head><body><main><h1>Our shop</h1><a href="/basket">Basket</a></main>${typeof body === 'string' ? body : body(path)}</body></html>`;
  const server = createServer((request, response) =>
    response.writeHead(200, { 'content-type': 'text/html' }).end(page(request.url ?? '/')),
  );
  const { hostname, port } = new URL(origin);
  await new Promise<void>((done) => server.listen(Number(port), hostname, done));
  return { url: `${origin}/`, close: () => server.close() };
}

/** What the company's own server does: signs the answers it knows with its embed secret. */
async function signedIdentity(answers: Record<string, string>) {
  const login = await api(routes.staffLogin, {
    body: { email: 'zoe@frontdesk.demo', password: 'frontdesk-demo' },
  });
  if (!('access_token' in login.data)) throw new Error('zoe must choose a password first');
  const { data } = await api(adminRoutes.rotateCompanyEmbedSecret, {
    params: { id: String(COMPANY.aroundTheClock) },
    token: login.data.access_token,
  });
  const exp = Math.floor(Date.now() / 1000) + 600;
  const body = Buffer.from(
    JSON.stringify({ company: COMPANY.aroundTheClock, answers, exp }),
  ).toString('base64url');
  return `${body}.${createHmac('sha256', data.secret ?? '')
    .update(body)
    .digest('hex')}`;
}

const seen = (page: Page, name: string) =>
  page.evaluate((key) => (window as unknown as Record<string, unknown[]>)[key] ?? [], name);

test('the snippet’s calls made before the loader has loaded (boot, a signed identify, open) work on another origin', async ({
  page,
}) => {
  const token = await signedIdentity({ name: 'Ada Lovelace', email: 'ada@example.org' });
  // The home page opens the widget itself; the basket only boots it.
  const shop = await startSite(DEMO_SHOP_ORIGIN, (path) =>
    path === '/'
      ? SNIPPET(`window.stages = [];
Frontdesk('boot', { company: ${COMPANY.aroundTheClock}, label: 'Call us' });
Frontdesk('on', 'stage', function (stage) { window.stages.push(stage); });
Frontdesk('identify', { token: '${token}' });
Frontdesk('open');`)
      : SNIPPET(`Frontdesk('boot', { company: ${COMPANY.aroundTheClock}, label: 'Call us' });`),
  );
  try {
    await page.goto(shop.url);
    // Queued before embed.js existed: the panel is open without a click, prefilled.
    const panel = page.getByRole('dialog', { name: 'Call us' });
    await expect(panel).toBeVisible();
    const widget = page.frameLocator('iframe[title="Call us"]');
    await expect(widget.getByTestId('guest-page')).toHaveAttribute('data-stage', 'welcome');
    await expect(widget.getByLabel(/Your name/)).toHaveValue('Ada Lovelace');
    await expect(widget.getByLabel(/E-mail/)).toHaveValue('ada@example.org');
    await expect.poll(() => seen(page, 'stages')).toContain('welcome');
    await inspectScreen(page, 'guest-embedded');

    await widget.getByLabel(/What is it about/).selectOption('account');
    await widget.getByRole('button', { name: 'Start' }).click();
    await expect(widget.getByTestId('guest-page')).not.toHaveAttribute('data-stage', 'welcome');
    // The API checked the signature: the answers the shop vouched for are stored as verified.
    const [row] = await queryRows<{ verified_fields: string[]; answers: Record<string, string> }>(
      `select s.verified_fields, s.answers from form_submissions s
        where s.company_id = $1 and s.service_type = 'Widget' order by s.id desc limit 1`,
      [COMPANY.aroundTheClock],
    );
    expect(row).toMatchObject({
      verified_fields: ['email', 'name'],
      answers: { name: 'Ada Lovelace', email: 'ada@example.org', topic: 'account' },
    });

    // Another page of the shop while the panel is open: it opens again there, and the widget
    // knows the visitor (the welcome form is not asked twice).
    await page.getByRole('link', { name: 'Basket' }).click();
    await expect(page).toHaveURL(/\/basket$/);
    await expect(panel).toBeVisible();
    await expect(widget.getByTestId('guest-page')).toHaveAttribute(
      'data-stage',
      /^(preview|selection)$/,
    );

    // Escape closes the panel and gives the focus back to the launcher; closed, it stays closed.
    await widget.getByRole('button').first().press('Escape');
    await expect(panel).toBeHidden();
    await expect(page.getByRole('button', { name: 'Call us' })).toBeFocused();
    await page.reload();
    await expect(page.getByRole('button', { name: 'Call us' })).toBeVisible();
    await expect(panel).toBeHidden();

    // A right-to-left site booting the widget in Arabic: the launcher and panel at its inline end.
    await page.evaluate(() => {
      document.documentElement.dir = 'rtl';
      const frontdesk = (window as unknown as { Frontdesk: (...a: unknown[]) => void }).Frontdesk;
      frontdesk('boot', { company: 12, label: 'تحدث إلينا', locale: 'ar' });
      frontdesk('open');
    });
    const arabic = page.frameLocator('iframe[title="تحدث إلينا"]');
    await expect(arabic.getByTestId('guest-page')).toHaveAttribute(
      'data-stage',
      /^(preview|selection)$/,
    );
    await expect(arabic.getByRole('heading', { level: 1 })).toBeVisible();
    const launcherBox = await page.getByRole('button', { name: 'تحدث إلينا' }).boundingBox();
    expect(launcherBox?.x).toBeLessThan(100);
    await inspectScreen(page, 'guest-embedded-rtl');
  } finally {
    shop.close();
  }
});

test('the widget asked for Arabic of a left-to-right company reads right to left, its close button too (phone)', async ({
  page,
}) => {
  const shop = await startSite(
    DEMO_SHOP_ORIGIN,
    SNIPPET(
      `Frontdesk('boot', { company: ${COMPANY.aroundTheClock}, label: 'Call us', locale: 'ar' });`,
    ),
  );
  try {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(shop.url);
    await page.getByRole('button', { name: 'Call us' }).click();
    const widget = page.frameLocator('iframe[title="Call us"]');
    await expect(widget.getByTestId('guest-page')).toHaveAttribute('data-stage', 'welcome');
    await expect(widget.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(widget.locator('html')).toHaveAttribute('lang', 'ar');
    await expect(widget.getByRole('button', { name: 'Start' })).toBeVisible();
    // The panel's close button sits at the widget's inline end: the left, in Arabic.
    const close = page.getByRole('button', { name: 'Close' });
    await expect(close).toHaveAttribute('dir', 'rtl');
    expect((await close.boundingBox())?.x).toBeLessThan(100);
    await inspectScreen(page, 'guest-embedded-ar-on-ltr-phone');
  } finally {
    shop.close();
  }
});

/** The guest the widget on `page` keeps for company 12 (its registration's name), if any. */
async function keptGuest(page: Page) {
  const frame = page.frames().find((f) => f.url().includes('service=Widget'));
  const kept = await frame?.evaluate(() => localStorage.getItem('frontdesk.guest.12'));
  return kept ? (JSON.parse(kept) as { username: string }).username : null;
}

test('shutdown (the site’s visitor signs out) forgets the visitor: the next boot is a new one', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const shop = await startSite(
    DEMO_SHOP_ORIGIN,
    SNIPPET(`Frontdesk('boot', { company: ${COMPANY.aroundTheClock}, label: 'Call us' });`),
  );
  const frontdesk = (...args: unknown[]) =>
    page.evaluate(
      (call) => (window as unknown as { Frontdesk: (...a: unknown[]) => void }).Frontdesk(...call),
      args,
    );
  const widget = page.frameLocator('iframe[title="Call us"]');
  const stage = widget.getByTestId('guest-page');
  /** The visitor opens the widget and answers the welcome form: the widget knows them. */
  const becomeKnown = async (name: string) => {
    await page.getByRole('button', { name: 'Call us' }).click();
    await expect(stage).toHaveAttribute('data-stage', 'welcome');
    await expect(widget.getByLabel(/Your name/)).toHaveValue('');
    await widget.getByLabel(/Your name/).fill(name);
    await widget.getByLabel(/E-mail/).fill('signed-in@example.org');
    await widget.getByLabel(/What is it about/).selectOption('account');
    await widget.getByRole('button', { name: 'Start' }).click();
    await expect(stage).toHaveAttribute('data-stage', 'preview');
    return keptGuest(page);
  };
  try {
    await page.goto(shop.url);
    const first = await becomeKnown('Sam Signed-In');
    expect(first).toMatch(/^g/);

    // Signed out with the widget open: the frame forgets, then goes with the launcher.
    await frontdesk('shutdown');
    await expect(page.getByRole('button', { name: 'Call us' })).toHaveCount(0);
    await expect(page.locator('iframe')).toHaveCount(0);
    await frontdesk('boot', { company: COMPANY.aroundTheClock, label: 'Call us' });
    const second = await becomeKnown('Nia New-Visitor');
    expect(second).not.toBe(first);

    // Signed out on a page where the widget was never opened: its next frame forgets first.
    await frontdesk('close');
    await page.reload();
    await expect(page.locator('iframe')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Call us' })).toBeVisible();
    await frontdesk('shutdown');
    await frontdesk('boot', { company: COMPANY.aroundTheClock, label: 'Call us' });
    const third = await becomeKnown('Ola Other');
    expect([first, second]).not.toContain(third);
  } finally {
    shop.close();
  }
});

test('a site that is not in the company’s allowedOrigins gets no launcher and no widget', async ({
  page,
}) => {
  const port = Number(new URL(DEMO_SHOP_ORIGIN).port) + 1;
  const stranger = await startSite(
    `http://127.0.0.1:${port}`,
    SNIPPET(`window.refused = [];
Frontdesk('on', 'refused', function (origin) { window.refused.push(origin); });
Frontdesk('boot', { company: ${COMPANY.aroundTheClock}, label: 'Call us' });
Frontdesk('open');`),
  );
  try {
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await page.goto(stranger.url);
    await expect.poll(() => seen(page, 'refused')).toEqual([`http://127.0.0.1:${port}`]);
    expect(warnings.join('\n')).toContain('is not in the allowedOrigins of company');
    await expect(page.getByRole('button', { name: 'Call us' })).toHaveCount(0);
    await expect(page.locator('iframe')).toHaveCount(0);
  } finally {
    stranger.close();
  }
});

test('the launcher in the company’s colours counts the agent’s messages while the panel is closed; full screen on a phone', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const shop = await startSite(
    DEMO_SHOP_ORIGIN,
    `<script type="module" src="${process.env.FRONTDESK_URL}/embed.js" data-company="${COMPANY.aroundTheClock}" data-label="Call us"></script>`,
  );
  const agent = await agentPage(browser, AGENT.cy);
  try {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(shop.url);
    const launcher = page.getByRole('button', { name: 'Call us' });
    // The company's button colours, as the API gives them to the loader.
    const { data: look } = await api(routes.embedConfig, {
      params: { id: String(COMPANY.aroundTheClock) },
    });
    const [r, g, b] = [1, 3, 5].map((i) =>
      parseInt((look.launcherColor ?? '#1f5fd6').slice(i, i + 2), 16),
    );
    await expect(launcher).toHaveCSS('background-color', `rgb(${r}, ${g}, ${b})`);
    // The shop knows its signed-in visitor and vouches for her (queued after the loader ran).
    const token = await signedIdentity({ name: 'Wanda Widget', email: 'wanda@example.org' });
    await page.evaluate(
      (signed) =>
        (window as unknown as { Frontdesk: (c: string, a: object) => void }).Frontdesk('identify', {
          token: signed,
        }),
      token,
    );
    await launcher.click();
    // On a phone the panel takes the whole screen.
    const panel = page.getByRole('dialog', { name: 'Call us' });
    await expect.poll(() => panel.boundingBox()).toEqual({ x: 0, y: 0, width: 390, height: 844 });

    const widget = page.frameLocator('iframe[title="Call us"]');
    await expect(widget.getByTestId('guest-page')).toHaveAttribute('data-stage', 'welcome');
    await expect(widget.getByLabel(/Your name/)).toHaveValue('Wanda Widget');
    await inspectScreen(page, 'guest-embedded-phone');
    await widget.getByLabel(/What is it about/).selectOption('existing-order');
    await widget.getByRole('button', { name: 'Start' }).click();
    await expect(widget.getByTestId('guest-page')).toHaveAttribute('data-stage', 'preview');
    await widget.getByRole('button', { name: 'Continue' }).click();
    await widget.getByTestId('category-11').click();
    await widget.getByLabel('Voice call').check();
    await widget.getByRole('button', { name: 'Start the call' }).click();
    await expect(widget.getByTestId('guest-page')).toHaveAttribute('data-stage', 'waiting');

    // The agent sees which answers the shop vouched for.
    const row = agent.getByTestId('queue-guest').filter({ hasText: 'Wanda Widget' });
    await expect(row.getByTestId('answer-verified')).toHaveCount(2);
    await inspectScreen(agent, 'console-queue-verified-answers');
    await row.getByRole('button', { name: /^Accept/ }).click();
    await expect(widget.getByTestId('guest-page')).toHaveAttribute('data-stage', 'ongoing');

    // The visitor closes the panel to look at the shop; the agent writes.
    await page.evaluate(() =>
      (window as unknown as { Frontdesk: (c: string) => void }).Frontdesk('close'),
    );
    await expect(panel).toBeHidden();
    const agentChat = agent.getByTestId('chat-panel');
    await agentChat.getByLabel('Message').fill('Still there?');
    await agentChat.getByRole('button', { name: 'Send' }).click();
    const badge = page.locator('[data-frontdesk-unread]');
    await expect(badge).toHaveText('1');
    await expect(page.getByRole('button', { name: 'Call us (1 unread)' })).toBeVisible();
    await inspectScreen(page, 'guest-embedded-unread-phone');

    // Opening the panel reads them: the badge goes.
    await page.getByRole('button', { name: 'Call us (1 unread)' }).click();
    await expect(badge).toBeHidden();
    await expect(widget.getByTestId('guest-page')).toHaveAttribute('data-stage', 'ongoing');
  } finally {
    await agent.context().close();
    shop.close();
  }
});

test('the company’s admin copies the snippet and sees and replaces the embed secret', async ({
  page,
}) => {
  await page.goto('/console/admin/embedding');
  await page.getByLabel('E-mail').fill('zoe@frontdesk.demo');
  await page.getByLabel('Password').fill('frontdesk-demo');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('embed-snippet')).toContainText(
    `Frontdesk('boot', { company: ${COMPANY.aroundTheClock}`,
  );
  await page.getByRole('button', { name: /^Make (a|a new) secret$/ }).click();
  await expect(page.getByTestId('outcome')).toHaveText('A new secret is ready.');
  await page.getByRole('button', { name: 'Show the secret' }).click();
  await expect(page.getByTestId('embed-secret')).toHaveText(/^fdes_[A-Za-z0-9_-]{43}$/);
  // Hidden again for the screenshots.
  await page.getByRole('button', { name: 'Show the secret' }).click();
  await inspectScreen(page, 'console-embedding');
  await page.setViewportSize({ width: 390, height: 844 });
  await inspectScreen(page, 'console-embedding-phone');
});
