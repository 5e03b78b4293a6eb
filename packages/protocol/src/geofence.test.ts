import { describe, expect, it } from 'vitest';
import { geofenceAreaSchema, geofenceCheckBodySchema } from './geofence.ts';

describe('geofence check body (spec §7)', () => {
  it('takes coordinates as numbers or as the strings the guest keeps (spec §3)', () => {
    expect(geofenceCheckBodySchema.parse({ lat: ' 51.5 ', lng: '-0.12', companyID: 5 })).toEqual({
      lat: 51.5,
      lng: -0.12,
      companyID: 5,
    });
  });

  it('takes the accuracy in metres, as a number or text, when the page sends it', () => {
    expect(
      geofenceCheckBodySchema.parse({ lat: 1, lng: 2, accuracy: ' 12.5', companyID: 5 }),
    ).toEqual({ lat: 1, lng: 2, accuracy: 12.5, companyID: 5 });
    expect(geofenceCheckBodySchema.parse({ lat: 1, lng: 2, accuracy: 30, companyID: 5 })).toEqual({
      lat: 1,
      lng: 2,
      accuracy: 30,
      companyID: 5,
    });
  });

  it.each([
    { lat: '' },
    { lat: 'NaN' },
    { lat: '1e3' },
    { lat: 90.1 },
    { lng: -181 },
    { accuracy: -1 },
    { accuracy: '' },
    { accuracy: 'near' },
  ])('refuses %j', (bad) => {
    expect(
      geofenceCheckBodySchema.safeParse({ lat: 1, lng: 1, companyID: 5, ...bad }).success,
    ).toBe(false);
  });
});

describe('geofence areas (RFC 7946)', () => {
  const ring = [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, 0],
  ];

  it('take closed rings', () => {
    expect(geofenceAreaSchema.safeParse({ type: 'Polygon', coordinates: [ring] }).success).toBe(
      true,
    );
    expect(
      geofenceAreaSchema.safeParse({ type: 'MultiPolygon', coordinates: [[ring]] }).success,
    ).toBe(true);
  });

  it('refuse open rings, too few positions and positions off the globe', () => {
    const open = [...ring.slice(0, 3), [0, 1]];
    expect(geofenceAreaSchema.safeParse({ type: 'Polygon', coordinates: [open] }).success).toBe(
      false,
    );
    expect(
      geofenceAreaSchema.safeParse({ type: 'Polygon', coordinates: [ring.slice(1)] }).success,
    ).toBe(false);
    const off = [
      [0, 0],
      [200, 0],
      [1, 1],
      [0, 0],
    ];
    expect(geofenceAreaSchema.safeParse({ type: 'Polygon', coordinates: [off] }).success).toBe(
      false,
    );
  });
});
