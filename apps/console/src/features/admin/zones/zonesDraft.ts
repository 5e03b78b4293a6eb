import { set, type FieldErrors, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import {
  geofenceAreaSchema,
  geofencePointBodySchema,
  geofenceZonesBodySchema,
  type GeofenceArea,
  type GeofenceZone,
} from '@frontdesk/protocol';
import { t } from '../../../i18n/messages.ts';
import { errorAt } from '../PathInput.tsx';
import type { ChangeLine } from '../SaveSummary.tsx';

/** A GeoJSON position: longitude, then latitude (RFC 7946). */
export type Position = [number, number];

/** A corner of an outline as the admin types it: decimal degrees, as map apps show them. */
export type CornerDraft = { lat: string; lng: string };

/**
 * One outline of a zone: its corners in order, the ring left open (the body repeats the first
 * corner to close it). Holes are kept as they came (loaded or pasted as GeoJSON) and drawn; the
 * editor does not change them.
 */
export type OutlineDraft = { corners: CornerDraft[]; holes: Position[][] };

/** A zone as the form holds it; `id` ties it to the saved zone it began as (none: added). */
export type ZoneDraft = { id: number | null; name: string; outlines: OutlineDraft[] };

/**
 * The service area as the editor's form holds it: the body of `PUT /company/:id/geofence` with
 * each area as outlines of corners, so a problem the schema or the API names by its place in the
 * GeoJSON (`zones.0.area.coordinates.0.2.1`) lands at a field (`zones.0.outlines.0.corners.2.lat`).
 */
export type ZonesValues = { zones: ZoneDraft[] };
export type ZonesBody = z.output<typeof geofenceZonesBodySchema>;

/** What the point check's form holds. */
export type PointValues = { lat: string; lng: string };
export type PointBody = z.output<typeof geofencePointBodySchema>;

/** A typed coordinate as a number; empty text is no number (never read as 0). */
export const coordinate = (text: string): number =>
  text.trim() === '' ? Number.NaN : Number(text.trim());

const cornersOf = (ring: readonly Position[]): CornerDraft[] =>
  // The ring's last position repeats its first.
  ring.slice(0, -1).map(([lng, lat]) => ({ lat: String(lat), lng: String(lng) }));

/** An area as outlines of corners: a Polygon is one, a MultiPolygon one each. */
export function toOutlines(area: GeofenceArea): OutlineDraft[] {
  const polygons = area.type === 'Polygon' ? [area.coordinates] : area.coordinates;
  return polygons.map(([outer = [], ...holes]) => ({ corners: cornersOf(outer), holes }));
}

export const toDraft = (zones: readonly GeofenceZone[]): ZonesValues => ({
  zones: zones.map((zone) => ({ id: zone.id, name: zone.name, outlines: toOutlines(zone.area) })),
});

export const newCorner = (): CornerDraft => ({ lat: '', lng: '' });

/** A zone to be drawn: a name to type and a triangle's three empty corners. */
export const newZone = (): ZoneDraft => ({
  id: null,
  name: '',
  outlines: [{ corners: [newCorner(), newCorner(), newCorner()], holes: [] }],
});

function closedRing(corners: readonly CornerDraft[]): Position[] {
  const ring = corners.map(({ lat, lng }): Position => [coordinate(lng), coordinate(lat)]);
  const first = ring[0];
  return first ? [...ring, first] : ring;
}

/** Outlines as GeoJSON: one makes a Polygon, several a MultiPolygon. */
export function areaOf(outlines: readonly OutlineDraft[]): GeofenceArea {
  const polygons = outlines.map((outline) => [closedRing(outline.corners), ...outline.holes]);
  const [only] = polygons;
  return polygons.length === 1 && only
    ? { type: 'Polygon', coordinates: only }
    : { type: 'MultiPolygon', coordinates: polygons };
}

/** The draft as the API takes it: names trimmed, each area GeoJSON. */
export const toBody = (values: ZonesValues): ZonesBody => ({
  zones: values.zones.map((zone) => ({ name: zone.name.trim(), area: areaOf(zone.outlines) })),
});

/** `zones.0.area.coordinates.0.2.1` (the API's `fields`) as the path the schema's issues have. */
export const issuePath = (field: string): (string | number)[] =>
  field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));

/**
 * An area's place (`coordinates…`) as `[part, ring, position, coordinate]`: a Polygon's
 * `[ring, position, coordinate]` is part 0's.
 */
function areaPlace(type: GeofenceArea['type'], rest: readonly PropertyKey[]) {
  return type === 'Polygon' ? [0, ...rest] : [...rest];
}

/**
 * Where the editor shows a problem of the body at `path`: a corner's latitude or longitude
 * (the ring's closing position is its first corner), an outline's corners as a whole, a zone's
 * name, the zone itself (a hole's problem, which only the API could find), or the list.
 */
export function draftPath(path: readonly PropertyKey[], values: ZonesValues): string {
  const [list, zone, key, coordinates, ...rest] = path;
  if (list !== 'zones' || typeof zone !== 'number') return 'zones.root';
  if (key === 'name') return `zones.${zone}.name`;
  const outlines = values.zones[zone]?.outlines ?? [];
  const type = areaOf(outlines).type;
  const [part, ring, position, axis] = areaPlace(type, rest);
  if (key !== 'area' || coordinates !== 'coordinates' || typeof part !== 'number' || ring !== 0) {
    return `zones.${zone}.area`;
  }
  const corners = `zones.${zone}.outlines.${part}.corners`;
  if (typeof position !== 'number') return `${corners}.root`;
  const count = outlines[part]?.corners.length ?? 0;
  return `${corners}.${position >= count ? 0 : position}.${axis === 0 ? 'lng' : 'lat'}`;
}

/**
 * A problem of the schema at a field of the editor, in an admin's words: zod's ("Too big:
 * expected number to be <=90") says what a developer needs.
 */
export function readableIssue(issue: z.core.$ZodIssue, field: string): string {
  const axis = field.endsWith('lat') ? 'lat' : field.endsWith('lng') ? 'lng' : null;
  if (axis) {
    if (issue.code === 'too_small' || issue.code === 'too_big') {
      return t(axis === 'lat' ? 'zoneLatRange' : 'zoneLngRange');
    }
    return t('zoneNotNumber');
  }
  if (field.endsWith('.name')) {
    return issue.code === 'too_big'
      ? t('zoneNameTooLong', { max: String(issue.maximum) })
      : t('zoneNameMissing');
  }
  if (field.endsWith('corners.root') && issue.code === 'too_small') return t('zoneFewCorners');
  if (field === 'zones.root' && issue.code === 'too_big') {
    return t('zoneTooMany', { max: String(issue.maximum) });
  }
  return issue.message;
}

/**
 * Checks the draft with the API's own schema (`geofenceZonesBodySchema`), each problem at the
 * field it concerns (the first one a field has); a valid draft comes out as the body to send.
 */
export const zonesResolver: Resolver<ZonesValues, unknown, ZonesBody> = (values) => {
  const result = geofenceZonesBodySchema.safeParse(toBody(values));
  if (result.success) return { values: result.data, errors: {} };
  const errors: FieldErrors<ZonesValues> = {};
  for (const issue of result.error.issues) {
    const field = draftPath(issue.path, values);
    if (errorAt(errors, field)) continue;
    set(errors, field, { type: issue.code, message: readableIssue(issue, field) });
  }
  return { values: {}, errors };
};

/** The point check's fields, checked with the API's `geofencePointBodySchema`. */
export const pointResolver: Resolver<PointValues, unknown, PointBody> = (values) => {
  const result = geofencePointBodySchema.safeParse({
    lat: coordinate(values.lat),
    lng: coordinate(values.lng),
  });
  if (result.success) return { values: result.data, errors: {} };
  const errors: FieldErrors<PointValues> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0]);
    if (!errorAt(errors, field)) {
      set(errors, field, { type: issue.code, message: readableIssue(issue, field) });
    }
  }
  return { values: {}, errors };
};

/** An area in a few words: "4 corners", "2 parts, 9 corners", "5 corners, 1 hole". */
export function describeArea(outlines: readonly OutlineDraft[]): string {
  const corners = outlines.reduce((sum, outline) => sum + outline.corners.length, 0);
  const holes = outlines.reduce((sum, outline) => sum + outline.holes.length, 0);
  const words = [
    outlines.length > 1 ? t('zoneParts', { count: String(outlines.length) }) : null,
    t('zoneCorners', { count: corners }),
    holes > 0 ? t('zoneHoles', { count: holes }) : null,
  ];
  return words.filter(Boolean).join(', ');
}

const sameArea = (a: ZoneDraft, b: ZoneDraft) =>
  JSON.stringify(areaOf(a.outlines)) === JSON.stringify(areaOf(b.outlines));

/**
 * What a save changed, zone by zone, for its summary: each zone added or removed, renamed, or
 * given another outline (zones are told apart by the saved zone each draft began as).
 */
export function describeZoneChanges(before: ZonesValues, after: ZonesValues): ChangeLine[] {
  const lines: ChangeLine[] = [];
  const kept = new Set<number>();
  after.zones.forEach((zone, index) => {
    const name = zone.name.trim();
    const old = before.zones.find((saved) => saved.id !== null && saved.id === zone.id);
    if (!old) {
      lines.push({
        key: `added-${index}`,
        label: name,
        before: t('zoneAbsent'),
        after: describeArea(zone.outlines),
      });
      return;
    }
    kept.add(index);
    if (old.name !== name) {
      lines.push({
        key: `renamed-${index}`,
        label: t('zoneRenamed'),
        before: `“${old.name}”`,
        after: `“${name}”`,
      });
    }
    if (!sameArea(old, zone)) {
      const was = describeArea(old.outlines);
      const is = describeArea(zone.outlines);
      lines.push({
        key: `area-${index}`,
        label: name,
        before: was,
        after: was === is ? t('zoneMoved', { area: is }) : is,
      });
    }
  });
  for (const old of before.zones) {
    if (!after.zones.some((zone) => zone.id === old.id)) {
      lines.push({
        key: `removed-${String(old.id)}`,
        label: old.name,
        before: describeArea(old.outlines),
        after: t('zoneRemoved'),
      });
    }
  }
  return lines;
}

// Pasted GeoJSON

/** A pasted shape's outcome: its outlines, or what is wrong with it in words. */
export type PastedArea = { ok: true; outlines: OutlineDraft[] } | { ok: false; problem: string };

/** The geometry of a GeoJSON text: itself, a Feature's, or a FeatureCollection's only one. */
function geometryOf(value: unknown): { geometry: unknown } | { problem: string } {
  const type = (value as { type?: unknown } | null)?.type;
  if (type === 'Feature') return { geometry: (value as { geometry?: unknown }).geometry };
  if (type === 'FeatureCollection') {
    const features = (value as { features?: unknown }).features;
    const list = Array.isArray(features) ? features : [];
    if (list.length !== 1) return { problem: t('geojsonFeatures', { count: String(list.length) }) };
    return geometryOf(list[0]);
  }
  return { geometry: value };
}

/** Positions keep longitude and latitude: an altitude (a third number, RFC 7946) is dropped. */
function withoutAltitudes(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  if (value.length > 2 && value.every((item) => typeof item === 'number')) return value.slice(0, 2);
  return value.map(withoutAltitudes);
}

type ShapePlace = {
  part: PropertyKey | undefined;
  ring: PropertyKey | undefined;
  position: PropertyKey | undefined;
};

/** Where in a pasted shape an issue is (its path starts at `coordinates`). */
function shapePlace(type: GeofenceArea['type'], path: readonly PropertyKey[]): ShapePlace {
  const [part, ring, position] = areaPlace(type, path.slice(1));
  return { part, ring, position };
}

/** A place in words: "Outline, position 3", "Part 2, hole 1". */
function placeInWords(type: GeofenceArea['type'], { part, ring, position }: ShapePlace): string {
  const words: string[] = [];
  if (type === 'MultiPolygon' && typeof part === 'number') {
    words.push(t('geojsonPart', { n: String(part + 1) }));
  }
  if (typeof ring === 'number') {
    words.push(ring === 0 ? t('geojsonOutline') : t('geojsonHole', { n: String(ring) }));
  }
  if (typeof position === 'number') words.push(t('geojsonPosition', { n: String(position + 1) }));
  return words.join(', ');
}

function readableShapeIssue(issue: z.core.$ZodIssue, place: ShapePlace): string {
  switch (issue.code) {
    case 'too_small':
    case 'too_big':
      if (issue.origin === 'number') {
        return t(issue.path.at(-1) === 0 ? 'geojsonLngRange' : 'geojsonLatRange');
      }
      if (typeof place.position === 'number') return t('geojsonNotPosition');
      return typeof place.ring === 'number' ? t('geojsonRingShort') : t('geojsonBadCoordinates');
    case 'custom':
      return t('geojsonRingOpen');
    case 'invalid_type':
      return issue.expected === 'number' ? t('geojsonNotNumber') : t('geojsonBadCoordinates');
    default:
      return t('geojsonBadCoordinates');
  }
}

/**
 * A GeoJSON shape pasted from a map tool, checked with the protocol's `geofenceAreaSchema`: a
 * Polygon or MultiPolygon, bare or in a Feature (or a FeatureCollection of one). What is wrong
 * is said with where it is (the first problem: fixing it may reveal the next).
 */
export function parsePastedArea(text: string): PastedArea {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: t('geojsonNotJson', { reason: (error as Error).message }) };
  }
  const found = geometryOf(value);
  if ('problem' in found) return { ok: false, problem: found.problem };
  const geometry = found.geometry as { type?: unknown; coordinates?: unknown } | null;
  const type = geometry?.type;
  if (type !== 'Polygon' && type !== 'MultiPolygon') {
    return {
      ok: false,
      problem: t('geojsonNotShape', { type: typeof type === 'string' ? type : t('geojsonNoType') }),
    };
  }
  const parsed = geofenceAreaSchema.safeParse({
    type,
    coordinates: withoutAltitudes(geometry?.coordinates),
  });
  if (parsed.success) return { ok: true, outlines: toOutlines(parsed.data) };
  const [issue] = parsed.error.issues;
  if (!issue) return { ok: false, problem: t('geojsonBadCoordinates') };
  const place = shapePlace(type, issue.path);
  const where = placeInWords(type, place);
  const problem = readableShapeIssue(issue, place);
  return { ok: false, problem: where ? t('geojsonProblemAt', { where, problem }) : problem };
}
