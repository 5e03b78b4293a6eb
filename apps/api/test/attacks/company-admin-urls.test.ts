import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_COMPANY } from '../../src/db/seed.ts';
import { bearer, buildTestApp, loginStaff, type TestApp } from '../helper.ts';

const COMPANY = SEEDED_COMPANY.demo;

/**
 * Attack: image and link addresses that a lenient URL parser reads as `https:` but that are not
 * written as one (upper case, leading space, backslashes, no slashes). Each must be refused as
 * bad input naming its field, never reach the stored settings, and never end in a server error.
 */
describe('attack: company addresses that are https: only to a lenient parser', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await loginStaff(t.app, 'admin@frontdesk.demo');
  });
  afterAll(() => t.close());

  it.each([
    'HTTPS://EXAMPLE.COM/logo.png',
    ' https://example.com/logo.png',
    'https:\\\\example.com\\logo.png',
    'https:example.com/logo.png',
    'https:/example.com/logo.png',
  ])('refuses %j naming the field', async (url) => {
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/api/company/${COMPANY}`,
      body: { logoImageUrl: url, faviconUrl: url },
      headers: bearer(admin),
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(Object.keys(response.json().error.fields).sort()).toEqual([
      'faviconUrl',
      'logoImageUrl',
    ]);
    const company = await t.app.inject({ method: 'GET', url: `/api/company/${COMPANY}` });
    expect(company.json().data.logoImageUrl).not.toBe(url);
  });

  it('takes an https: address written as one', async () => {
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/api/company/${COMPANY}`,
      body: { logoImageUrl: 'https://cdn.example.com/logo.png' },
      headers: bearer(admin),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.logoImageUrl).toBe('https://cdn.example.com/logo.png');
  });
});
