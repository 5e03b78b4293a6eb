import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_COMPANY } from '../src/db/seed.ts';
import { buildTestApp, type TestApp } from './helper.ts';

/** The shape of the guest app's built index.html. */
const BUILT_PAGE = `<!doctype html>
<html lang="en" dir="ltr">
  <head>
    <meta charset="UTF-8" />
    <title>Frontdesk</title>
    <script type="module" crossorigin src="/assets/main.js"></script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

describe('GET / (the guest page)', () => {
  let t: TestApp;
  let guestDir: string;
  beforeAll(async () => {
    guestDir = await mkdtemp(join(tmpdir(), 'frontdesk-guest-page-'));
    await writeFile(join(guestDir, 'index.html'), BUILT_PAGE);
    t = await buildTestApp({ GUEST_APP_DIR: guestDir });
  });
  afterAll(async () => {
    await t.close();
    await rm(guestDir, { recursive: true, force: true });
  });

  const page = async (query: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/${query}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    return response.body;
  };

  it("comes with the company's language, direction, colours, font, title and icon", async () => {
    const html = await page(`?company=${SEEDED_COMPANY.arabic}&service=Talk`);
    expect(html).toMatch(
      /<html lang="ar" dir="rtl" style="[^"]*--fd-font:Noto Naskh Arabic;--fd-font-generic:serif/,
    );
    expect(html).toContain('<title>');
    expect(html).not.toContain('<title>Frontdesk</title>');
    expect(html).toContain(`<script>performance.mark('frontdesk:branded')</script></head>`);
    const demo = await page(`?company=${SEEDED_COMPANY.demo}`);
    expect(demo).toMatch(/<html lang="en" dir="ltr" style="--fd-page-bg:#f5f7fa;/);
    expect(demo).toContain('<title>Frontdesk Demo</title>');
    expect(demo).toContain('<link rel="icon" href="/brand/favicon.svg" />');
  });

  it("comes in the embed's language and its direction (?lang=) over the company's", async () => {
    const company = `?company=${SEEDED_COMPANY.demo}&service=Widget`;
    expect(await page(`${company}&lang=ar`)).toMatch(/<html lang="ar" dir="rtl" /);
    expect(await page(`${company}&lang=en-GB`)).toMatch(/<html lang="en" dir="ltr" /);
    expect(await page(`?company=${SEEDED_COMPANY.arabic}&lang=en`)).toMatch(
      /<html lang="en" dir="ltr" /,
    );
    // Not a language tag: the company's.
    expect(await page(`${company}&lang=${encodeURIComponent('"><script>')}`)).toMatch(
      /<html lang="en" dir="ltr" /,
    );
  });

  it('brands the default company when the address names none or names it badly', async () => {
    for (const query of ['', '?company=abc']) {
      expect(await page(query)).toContain('<title>Frontdesk Demo</title>');
    }
  });

  it('answers the page as built for a company that does not exist', async () => {
    expect(await page('?company=999')).toBe(BUILT_PAGE);
  });

  it('escapes what a company wrote, and leaves out a value that would end its declaration (SECURITY)', async () => {
    const company = await t.app.db
      .selectFrom('companies')
      .select('settings')
      .where('id', '=', SEEDED_COMPANY.demo)
      .executeTakeFirstOrThrow();
    await t.app.db
      .updateTable('companies')
      .set({
        settings: JSON.stringify({
          ...company.settings,
          websiteTitle: '</title><script>alert(1)</script>',
          fontFamily: 'Inter;display:none',
        }),
      })
      .where('id', '=', SEEDED_COMPANY.demo)
      .execute();
    t.app.companyDetails.forget(SEEDED_COMPANY.demo);
    const html = await page(`?company=${SEEDED_COMPANY.demo}`);
    expect(html).toContain('<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>');
    expect(html).not.toContain('alert(1)</script>');
    expect(html).not.toContain('--fd-font');
  });
});
