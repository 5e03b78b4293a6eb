import { describe, expect, it } from 'vitest';
import type { GeofenceArea } from '@frontdesk/protocol';
import { insideAnyArea } from './zones.ts';

const london: GeofenceArea = {
  type: 'Polygon',
  coordinates: [
    [
      [-0.51, 51.28],
      [0.34, 51.28],
      [0.34, 51.69],
      [-0.51, 51.69],
      [-0.51, 51.28],
    ],
  ],
};
const paris: GeofenceArea = {
  type: 'MultiPolygon',
  coordinates: [
    [
      [
        [2.2, 48.8],
        [2.5, 48.8],
        [2.5, 48.95],
        [2.2, 48.95],
        [2.2, 48.8],
      ],
    ],
  ],
};

describe('insideAnyArea', () => {
  it('finds a point inside a polygon, reading GeoJSON longitude first', () => {
    expect(insideAnyArea([london], 51.5072, -0.1276)).toBe(true);
    // The same numbers swapped would be in the Indian Ocean.
    expect(insideAnyArea([london], -0.1276, 51.5072)).toBe(false);
  });

  it('finds a point in any of several areas, multipolygons included', () => {
    expect(insideAnyArea([london, paris], 48.8566, 2.3522)).toBe(true);
    expect(insideAnyArea([london, paris], 52.52, 13.405)).toBe(false);
  });

  it('serves everywhere when there are no areas', () => {
    expect(insideAnyArea([], -33.86, 151.2)).toBe(true);
  });
});
