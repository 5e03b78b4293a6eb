import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { point } from '@turf/helpers';
import type { GeofenceArea } from '@frontdesk/protocol';

/**
 * Whether a position lies in any of the areas (boundary included). A company without areas
 * serves everywhere.
 */
export function insideAnyArea(areas: readonly GeofenceArea[], lat: number, lng: number): boolean {
  return (
    areas.length === 0 ||
    zoneContaining(
      areas.map((area) => ({ area })),
      lat,
      lng,
    ) !== undefined
  );
}

/** The first of the zones the position lies in (boundary included); `undefined` when none. */
export function zoneContaining<Zone extends { area: GeofenceArea }>(
  zones: readonly Zone[],
  lat: number,
  lng: number,
): Zone | undefined {
  // GeoJSON puts longitude first (RFC 7946).
  const position = point([lng, lat]);
  return zones.find((zone) => booleanPointInPolygon(position, zone.area));
}
