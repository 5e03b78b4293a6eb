import { z } from 'zod';
import { recordIdSchema } from './ids.ts';

/**
 * A number, or the text the guest keeps it as (spec §3: location latitude and longitude are
 * strings). Empty or non-numeric text is refused rather than read as 0.
 */
const numberOrText = (pattern: RegExp, message: string) =>
  z.union([z.number(), z.string().regex(pattern, message).transform(Number)]);

const coordinate = (limit: number) =>
  numberOrText(/^\s*-?\d{1,3}(\.\d+)?\s*$/, 'must be a number').pipe(
    z.number().min(-limit).max(limit),
  );

/** `PUT /geo-fence/check` (spec §7). */
export const geofenceCheckBodySchema = z.strictObject({
  lat: coordinate(90),
  lng: coordinate(180),
  /**
   * How far off the position may be, in metres, as the browser's geolocation says
   * (`coords.accuracy`); optional, as spec §7 does not send it. Kept for the agent's panel.
   */
  accuracy: numberOrText(/^\s*\d{1,7}(\.\d+)?\s*$/, 'must be a number of metres')
    .pipe(z.number().min(0).max(1_000_000))
    .optional(),
  companyID: recordIdSchema,
});

/**
 * spec §4: a successful check means inside, any failure outside; so the API answers 200 only
 * when inside and 403 `outside_geofence` otherwise.
 */
export const geofenceResultSchema = z.object({ inside: z.literal(true) });

/** GeoJSON position: longitude, then latitude (RFC 7946). */
const positionSchema = z.tuple([z.number().min(-180).max(180), z.number().min(-90).max(90)]);
const linearRingSchema = z
  .array(positionSchema)
  .min(4)
  .refine((ring) => {
    const [first, last] = [ring[0], ring.at(-1)];
    return (
      first !== undefined && last !== undefined && first[0] === last[0] && first[1] === last[1]
    );
  }, 'a ring must end where it starts');

/** A company's service area (RFC 7946 Polygon or MultiPolygon). */
export const geofenceAreaSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('Polygon'), coordinates: z.array(linearRingSchema).min(1) }),
  z.object({
    type: z.literal('MultiPolygon'),
    coordinates: z.array(z.array(linearRingSchema).min(1)).min(1),
  }),
]);
export type GeofenceArea = z.infer<typeof geofenceAreaSchema>;
