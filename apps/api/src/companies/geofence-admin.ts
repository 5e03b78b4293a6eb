import type { Kysely } from 'kysely';
import type { GeofenceArea, GeofenceZone } from '@frontdesk/protocol';
import { changeCompany, type CompanyChangeOptions } from '../audit/company-changes.ts';
import type { Database } from '../db/schema.ts';
import { insideAnyArea } from '../geofence/zones.ts';

/** The company's named zones, oldest first. */
export async function listZones(db: Kysely<Database>, companyId: number): Promise<GeofenceZone[]> {
  return db
    .selectFrom('geofence_zones')
    .select(['id', 'name', 'area'])
    .where('company_id', '=', companyId)
    .orderBy('id')
    .execute();
}

/**
 * `PUT /company/:id/geofence`: the zones become exactly `zones` (none: the company serves
 * everywhere). Guests are checked against them from the next check on.
 */
export async function saveZones(
  db: Kysely<Database>,
  options: CompanyChangeOptions,
  zones: readonly { name: string; area: GeofenceArea }[],
): Promise<{ result: GeofenceZone[]; version: number }> {
  const { companyId } = options;
  return changeCompany(db, options, async (trx) => {
    const before = await listZones(trx, companyId);
    await trx.deleteFrom('geofence_zones').where('company_id', '=', companyId).execute();
    if (zones.length > 0) {
      await trx
        .insertInto('geofence_zones')
        .values(
          zones.map((zone) => ({
            company_id: companyId,
            name: zone.name,
            area: JSON.stringify(zone.area),
          })),
        )
        .execute();
    }
    const after = await listZones(trx, companyId);
    const named = (list: GeofenceZone[]) => list.map(({ name, area }) => ({ name, area }));
    return {
      action: 'geofence.update',
      target: `company ${companyId}`,
      before: { zones: named(before) },
      after: { zones: named(after) },
      result: after,
    };
  });
}

/**
 * The admin's "is this point inside?": whether a guest there passes the company's check (the
 * same test, `insideAnyArea`) and which zones hold the point.
 */
export async function checkPoint(
  db: Kysely<Database>,
  companyId: number,
  { lat, lng }: { lat: number; lng: number },
): Promise<{ inside: boolean; zones: { id: number; name: string }[] }> {
  const zones = await listZones(db, companyId);
  return {
    inside: insideAnyArea(
      zones.map((z) => z.area),
      lat,
      lng,
    ),
    zones: zones
      .filter((zone) => insideAnyArea([zone.area], lat, lng))
      .map(({ id, name }) => ({ id, name })),
  };
}
