import type { Kysely } from 'kysely';
import { companySettingsSchema, type GeofenceArea } from '@frontdesk/protocol';
import { requireCompany } from '../companies/company-repository.ts';
import type { Database } from '../db/schema.ts';
import { ForbiddenError } from '../domain-errors.ts';
import { mayKeepGuestData } from '../guests/guest-consent.ts';
import { insideAnyArea } from './zones.ts';

/** Where a guest is, and how far off that may be in metres when its browser said. */
type Position = { lat: number; lng: number; accuracy?: number | undefined };

/** The guest's position passed the company's check (`null`: it failed, the guest moved out). */
export async function recordLocationCheck(
  db: Kysely<Database>,
  guestId: number,
  insideAt: Date | null,
  position: Position | null = null,
): Promise<void> {
  // The position is kept for the agent's guest panel (issue 19) only while it passed.
  const kept = insideAt ? position : null;
  await db
    .updateTable('guests')
    .set({
      inside_zone_at: insideAt,
      location_lat: kept?.lat ?? null,
      location_lng: kept?.lng ?? null,
      location_accuracy: kept?.accuracy ?? null,
    })
    .where('id', '=', guestId)
    .execute();
}

/** The zones the company serves, by name; none means it serves everywhere. */
export async function listServiceZones(
  db: Kysely<Database>,
  companyId: number,
): Promise<{ name: string; area: GeofenceArea }[]> {
  return db
    .selectFrom('geofence_zones')
    .select(['name', 'area'])
    .where('company_id', '=', companyId)
    .orderBy('id')
    .execute();
}

/** The areas the company serves; none means it serves everywhere. */
export async function listServiceAreas(
  db: Kysely<Database>,
  companyId: number,
): Promise<GeofenceArea[]> {
  return (await listServiceZones(db, companyId)).map((zone) => zone.area);
}

/**
 * `PUT /geo-fence/check` (spec §4): passes when the position is inside the company's service
 * area, else refuses with the company's own message. With `guestId` the result is kept for that
 * guest, since `call-report/add` admits a call of a company that asks for the location only after
 * a recent pass (issue 13).
 */
export async function checkLocation(
  db: Kysely<Database>,
  {
    companyId,
    guestId,
    ...position
  }: Position & { companyId: number; guestId: number | undefined },
): Promise<void> {
  const company = await requireCompany(db, companyId);
  const settings = companySettingsSchema.parse(company.settings);
  const inside = insideAnyArea(await listServiceAreas(db, company.id), position.lat, position.lng);
  // A guest that never consented (decision 0030) is checked, its position not kept.
  if (guestId !== undefined && (await mayKeepGuestData(db, company.settings, guestId))) {
    await recordLocationCheck(db, guestId, inside ? new Date() : null, position);
  }
  if (!inside) {
    // spec §4: any failure means outside, so "outside" is a refusal the guest shows as such.
    const { outOfZoneMsg } = settings;
    throw new ForbiddenError(
      'outside_geofence',
      outOfZoneMsg ?? `${company.name} does not serve this location.`,
    );
  }
}
