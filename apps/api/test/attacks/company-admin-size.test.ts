import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditPageSchema,
  envelope,
  MAX_CATEGORIES,
  MAX_GEOFENCE_POSITIONS,
} from '@frontdesk/protocol';
import { AUDIT_PAGE_BYTES } from '../../src/companies/audit-log.ts';
import { SEEDED_COMPANY } from '../../src/db/seed.ts';
import { bearer, buildTestApp, loginStaff, type TestApp } from '../helper.ts';

const COMPANY = SEEDED_COMPANY.demo;

/** One zone whose ring has `positions` positions in all (a thin strip, closed). */
function zoneOf(name: string, positions: number, shift = 0) {
  const ring = Array.from({ length: positions - 1 }, (_, i) => [
    Number((-0.2 + shift + i * 1e-6).toFixed(6)),
    51.5 + (i % 2) * 1e-3,
  ]);
  ring.push(ring[0] as number[]);
  return { name, area: { type: 'Polygon', coordinates: [ring] } };
}

/**
 * Attack: an admin makes their own company's data huge to hurt the installation every company
 * shares — zones that every anonymous location check loads and measures in full, and audit
 * entries (each keeps the zones before and after) that one `GET …/audit?limit=200` would load
 * into a single answer of hundreds of megabytes, enough to take the API process down.
 */
describe('attack: company admin data sized to hurt everyone', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await loginStaff(t.app, 'admin@frontdesk.demo');
  });
  afterAll(() => t.close());

  const send = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: object) =>
    t.app.inject({
      method,
      url: `/api/company/${COMPANY}${path}`,
      ...(body ? { body } : {}),
      headers: bearer(admin),
    });

  it('refuses zones of more positions in all than the limit, naming zones', async () => {
    const zones = [
      zoneOf('north', Math.ceil(MAX_GEOFENCE_POSITIONS / 2) + 10),
      zoneOf('south', Math.ceil(MAX_GEOFENCE_POSITIONS / 2) + 10, 0.1),
    ];
    const response = await send('PUT', '/geofence', { zones });
    expect(response.statusCode, response.body).toBe(400);
    expect(Object.keys(response.json().error.fields)).toEqual(['zones']);
    const kept = await send('GET', '/geofence');
    expect(kept.json().data.map((z: { name: string }) => z.name)).not.toContain('north');
  });

  it('takes zones up to the limit', async () => {
    const response = await send('PUT', '/geofence', {
      zones: [zoneOf('whole city', MAX_GEOFENCE_POSITIONS)],
    });
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  });

  it('refuses a category past the limit (every guest page lists them all), taking one again after a deletion', async () => {
    const live = async () => (await send('GET', '/categories')).json().data as { id: number }[];
    for (let n = (await live()).length; n < MAX_CATEGORIES; n += 1) {
      expect((await send('POST', '/categories', { name: `Desk ${n}` })).statusCode).toBe(201);
    }
    const over = await send('POST', '/categories', { name: 'One too many' });
    expect(over.statusCode, over.body).toBe(409);
    expect(over.json().error.code).toBe('too_many_categories');
    const categories = await live();
    expect(categories).toHaveLength(MAX_CATEGORIES);
    const company = await t.app.inject({ method: 'GET', url: `/api/company/${COMPANY}` });
    expect(company.json().data.categories).toHaveLength(MAX_CATEGORIES);

    expect((await send('DELETE', `/categories/${categories.at(-1)?.id}`)).statusCode).toBe(204);
    expect((await send('POST', '/categories', { name: 'In its place' })).statusCode).toBe(201);
  });

  it('answers a page of the audit log no larger than its budget, the rest on later pages', async () => {
    // Each save keeps the zones it replaced and the new ones: the log soon outgrows a page.
    for (let save = 1; save <= 5; save += 1) {
      const response = await send('PUT', '/geofence', {
        zones: [zoneOf(`city ${save}`, MAX_GEOFENCE_POSITIONS - 100, save / 100)],
      });
      expect(response.statusCode).toBe(200);
    }
    const stored = await t.app.db
      .selectFrom('audit_entries')
      .select('id')
      .where('company_id', '=', COMPANY)
      .orderBy('id', 'desc')
      .execute();

    const pages: { ids: number[]; bytes: number }[] = [];
    let before: number | null | undefined;
    do {
      const query = before === undefined ? '' : `&before=${before}`;
      const response = await send('GET', `/audit?limit=200${query}`);
      expect(response.statusCode).toBe(200);
      const page = envelope(auditPageSchema).parse(response.json()).data;
      pages.push({ ids: page.entries.map((e) => e.id), bytes: response.body.length });
      before = page.nextBefore;
    } while (before !== null && pages.length <= stored.length);

    // Not all in one answer, however many were asked for…
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) {
      expect(page.ids.length).toBeGreaterThan(0);
      // …each page at most its budget, or one entry alone when that entry is larger.
      if (page.ids.length > 1) expect(page.bytes).toBeLessThanOrEqual(AUDIT_PAGE_BYTES);
    }
    // …and every entry once, newest first, across the pages.
    expect(pages.flatMap((p) => p.ids)).toEqual(stored.map((row) => Number(row.id)));
  });
});
