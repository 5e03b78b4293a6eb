import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { point } from '@turf/helpers';
import type { GeofenceArea } from '@frontdesk/protocol';

/**
 * Whether a position lies in any of the areas (boundary included). A company without areas
 * serves everywhere.
 */
export function insideAnyArea(areas: readonly GeofenceArea[], lat: number, lng: number): boolean {
  if (areas.length === 0) return true;
  // GeoJSON puts longitude first (RFC 7946).
  const position = point([lng, lat]);
  return areas.some((area) => booleanPointInPolygon(position, area));
}
