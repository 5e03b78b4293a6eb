import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_COMPANY } from '../src/db/seed.ts';
import { buildTestApp, type TestApp } from './helper.ts';

describe('PUT /api/geo-fence/check', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const check = (body: object) =>
    t.app.inject({ method: 'PUT', url: '/api/geo-fence/check', body });
  const london = { lat: 51.5072, lng: -0.1276 };

  it('answers 200 inside the zone, taking coordinates as numbers or as text (spec §3)', async () => {
    const response = await check({ ...london, companyID: SEEDED_COMPANY.geofenced });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: { inside: true } });
    const asText = await check({
      lat: '51.5072',
      lng: '-0.1276',
      companyID: SEEDED_COMPANY.geofenced,
    });
    expect(asText.statusCode).toBe(200);
  });

  it("answers 403 outside the zone with the company's out-of-zone message", async () => {
    const response = await check({
      lat: 53.4808,
      lng: -2.2426,
      companyID: SEEDED_COMPANY.geofenced,
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toEqual({
      code: 'outside_geofence',
      message: 'Sorry, we only serve visitors in Greater London.',
    });
  });

  it('lets anyone in at a company without zones', async () => {
    expect(
      (await check({ lat: -33.86, lng: 151.2, companyID: SEEDED_COMPANY.arabic })).statusCode,
    ).toBe(200);
  });

  it('answers an unknown company with 404', async () => {
    expect((await check({ ...london, companyID: 4040 })).json().error.code).toBe(
      'company_not_found',
    );
  });

  it.each([
    ['a latitude beyond 90', { lat: 91 }, 'lat'],
    ['a longitude beyond 180', { lng: -180.5 }, 'lng'],
    ['an empty latitude', { lat: '' }, 'lat'],
    ['a latitude that is not a number', { lat: 'north' }, 'lat'],
    ['no company', { companyID: undefined }, 'companyID'],
  ])('refuses %s with 400 naming the field', async (_name, body, field) => {
    const response = await check({ ...london, companyID: SEEDED_COMPANY.geofenced, ...body });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toHaveProperty(field);
  });
});
