import { describe, expect, it } from 'vitest';
import type { GeofenceArea } from '@frontdesk/protocol';
import {
  areaOf,
  describeZoneChanges,
  draftPath,
  issuePath,
  parsePastedArea,
  toDraft,
  toOutlines,
  type ZonesValues,
} from './zonesDraft.ts';

type Ring = [number, number][];
const triangle: Ring = [
  [0, 0],
  [1, 0],
  [1, 1],
  [0, 0],
];
const square: Ring = [
  [5, 5],
  [8, 5],
  [8, 8],
  [5, 8],
  [5, 5],
];
const lake: Ring = [
  [6, 6],
  [7, 6],
  [7, 7],
  [6, 6],
];

/** Two islands, the second with a lake: a MultiPolygon. */
const islands: GeofenceArea = { type: 'MultiPolygon', coordinates: [[triangle], [square, lake]] };

describe('the zones draft', () => {
  it('holds a MultiPolygon with a hole as outlines and gives back the same GeoJSON', () => {
    const outlines = toOutlines(islands);
    expect(outlines.map((outline) => outline.corners.length)).toEqual([3, 4]);
    expect(outlines[1]?.holes).toHaveLength(1);
    expect(areaOf(outlines)).toEqual(islands);
  });

  it("puts the API's field names at the corner they concern, in a Polygon and a MultiPolygon", () => {
    const values: ZonesValues = toDraft([
      {
        id: 1,
        name: 'Square',
        area: { type: 'Polygon', coordinates: [square] },
      },
      { id: 2, name: 'Islands', area: islands },
    ]);
    const at = (field: string) => draftPath(issuePath(field), values);
    expect(at('zones.0.area.coordinates.0.2.0')).toBe('zones.0.outlines.0.corners.2.lng');
    // The closing position is the first corner again.
    expect(at('zones.0.area.coordinates.0.4.1')).toBe('zones.0.outlines.0.corners.0.lat');
    expect(at('zones.1.area.coordinates.1.0.3.1')).toBe('zones.1.outlines.1.corners.3.lat');
    expect(at('zones.1.area.coordinates.0.0')).toBe('zones.1.outlines.0.corners.root');
    // A hole is not edited field by field: its problem is the zone's.
    expect(at('zones.1.area.coordinates.1.1.2.0')).toBe('zones.1.area');
    expect(at('zones.1.name')).toBe('zones.1.name');
    expect(at('zones')).toBe('zones.root');
  });

  it('tells what a save changes, zone by zone', () => {
    const before = toDraft([
      { id: 1, name: 'Islands', area: islands },
      { id: 2, name: 'Gone', area: islands },
    ]);
    const after: ZonesValues = {
      zones: [{ id: 1, name: 'Archipelago', outlines: toOutlines(islands).slice(1) }],
    };
    expect(
      describeZoneChanges(before, after).map(
        (line) => `${line.label}: ${line.before} → ${line.after}`,
      ),
    ).toEqual([
      'Zone renamed: “Islands” → “Archipelago”',
      'Archipelago: 2 parts, 7 corners, 1 hole → 4 corners, 1 hole',
      'Gone: 2 parts, 7 corners, 1 hole → removed',
    ]);
  });
});

describe('a pasted GeoJSON shape', () => {
  const problem = (text: string) => {
    const pasted = parsePastedArea(text);
    return pasted.ok ? null : pasted.problem;
  };

  it('is taken bare, in a Feature or as a collection of one, altitudes dropped', () => {
    const feature = { type: 'Feature', properties: {}, geometry: islands };
    const collection = { type: 'FeatureCollection', features: [feature] };
    for (const value of [islands, feature, collection]) {
      const pasted = parsePastedArea(JSON.stringify(value));
      expect(pasted.ok && areaOf(pasted.outlines)).toEqual(islands);
    }
    const raised = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0, 12],
          [1, 0, 12],
          [1, 1, 12],
          [0, 0, 12],
        ],
      ],
    };
    const pasted = parsePastedArea(JSON.stringify(raised));
    expect(pasted.ok && pasted.outlines[0]?.corners[2]).toEqual({ lat: '1', lng: '1' });
  });

  it('is refused with what is wrong and where', () => {
    expect(problem('{"type": "Polygon",')).toMatch(/^This is not JSON: /);
    expect(problem('{"type": "Point", "coordinates": [0, 0]}')).toBe(
      'This is a Point, not an area: paste a Polygon or a MultiPolygon (or a Feature holding one).',
    );
    expect(problem('{"type": "FeatureCollection", "features": []}')).toBe(
      'This collection has 0 features: paste one, a Polygon or a MultiPolygon.',
    );
    expect(problem('{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1]]]}')).toBe(
      'In the outline: a ring must end at the position it starts from.',
    );
    expect(problem('{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [0, 0]]]}')).toBe(
      'In the outline: a ring needs at least four positions, the last the same as the first.',
    );
    expect(
      problem(
        JSON.stringify({
          ...islands,
          coordinates: [
            islands.coordinates[0],
            [
              [
                [5, 5],
                [8, 5],
                [8, 8],
                [200, 5],
                [5, 5],
              ],
            ],
          ],
        }),
      ),
    ).toBe(
      'In part 2, the outline, position 4: the longitude (the first number) must be between -180 and 180.',
    );
    expect(problem('{"type": "Polygon", "coordinates": [[[0], [1, 0], [1, 1], [0, 0]]]}')).toBe(
      'In the outline, position 1: a position is two numbers, [longitude, latitude].',
    );
  });
});
