import type { GeofenceArea } from '@frontdesk/protocol';

/** A square service area `size` degrees wide from its south-west corner, as GeoJSON. */
export const square = (
  lng: number,
  lat: number,
  size = 1,
): Extract<GeofenceArea, { type: 'Polygon' }> => ({
  type: 'Polygon',
  coordinates: [
    [
      [lng, lat],
      [lng + size, lat],
      [lng + size, lat + size],
      [lng, lat + size],
      [lng, lat],
    ],
  ],
});
