import { t } from '../../../i18n/messages.ts';
import type { CheckedPoint } from './PointCheck.tsx';
import { coordinate, type CornerDraft, type Position, type ZonesValues } from './zonesDraft.ts';

// Told apart from each other and from the page (each at least 4.5:1 on white).
const PALETTE = ['#1d4ed8', '#b45309', '#047857', '#7c3aed', '#be123c', '#0e7490'] as const;

/** The colour zone `index` is drawn in (its swatch in the form is the same). */
export const zoneColour = (index: number): string => PALETTE[index % PALETTE.length] ?? PALETTE[0];

const KM_PER_DEGREE = 111.32; // along a meridian, and along the equator
// The drawing keeps a shape between a wide strip and a tall column.
const FLATTEST = 0.4;
const TALLEST = 1.2;
const MARGIN = 0.08; // of the larger side, around the shapes
const LABEL_SIZE = 0.035; // of the drawing's larger side
const LABEL_SIDE = 0.3; // a name this near a side of the drawing aligns with that side

type Shape = { index: number; name: string; polygons: Position[][][] };

/** The corners that are numbers on the globe; the others are left out until fixed. */
function drawable(corners: readonly CornerDraft[]): Position[] {
  return corners
    .map(({ lat, lng }): Position => [coordinate(lng), coordinate(lat)])
    .filter(([lng, lat]) => Math.abs(lng) <= 180 && Math.abs(lat) <= 90);
}

function shapesOf(values: ZonesValues): Shape[] {
  return values.zones.map((zone, index) => ({
    index,
    name: zone.name.trim() || t('zoneNumber', { n: String(index + 1) }),
    polygons: zone.outlines.map((outline) => [drawable(outline.corners), ...outline.holes]),
  }));
}

/** "3.2 km", "450 m". */
function distanceInWords(km: number): string {
  if (km >= 1) return t('drawingKm', { km: km.toFixed(km >= 10 ? 0 : 1) });
  return t('drawingMetres', { m: String(Math.max(1, Math.round(km * 1000))) });
}

/**
 * The zones' outlines, and the point last checked, drawn on a plain plane (no map: nothing is
 * loaded from elsewhere): longitude across, shrunk by the cosine of the middle latitude so shapes
 * keep their proportions, latitude up. It only shows the shape the coordinates make; the
 * coordinates in the form are what is saved, so the drawing is hidden from assistive technology
 * and its caption says what it is.
 */
export function ZonesDrawing(props: { values: ZonesValues; checked: CheckedPoint | null }) {
  const shapes = shapesOf(props.values);
  const { checked } = props;
  const positions = shapes.flatMap((shape) => shape.polygons.flat(2));
  if (checked) positions.push([checked.lng, checked.lat]);
  if (positions.length === 0) {
    return (
      <figure className="zones-drawing">
        <figcaption className="help">{t('drawingEmpty')}</figcaption>
      </figure>
    );
  }

  const lngs = positions.map(([lng]) => lng);
  const lats = positions.map(([, lat]) => lat);
  const [west, east] = [Math.min(...lngs), Math.max(...lngs)];
  const [south, north] = [Math.min(...lats), Math.max(...lats)];
  const shrink = Math.max(0.05, Math.cos((((south + north) / 2) * Math.PI) / 180));
  const project = ([lng, lat]: Position) => [lng * shrink, -lat] as const;
  let width = (east - west) * shrink;
  let height = north - south;
  const across = width * KM_PER_DEGREE;
  const side = Math.max(width, height, 1e-4);
  width = Math.max(width, height / TALLEST, side * FLATTEST);
  height = Math.max(height, width * FLATTEST);
  const margin = side * MARGIN;
  const fontSize = (Math.max(width, height) + 2 * margin) * LABEL_SIZE;
  const [centreX, centreY] = project([(west + east) / 2, (south + north) / 2]);
  // Above the shapes, room for the northernmost zone's name.
  const top = centreY - height / 2 - margin - fontSize * 1.5;
  const left = centreX - width / 2 - margin;
  const box = {
    x: left,
    y: top,
    width: width + 2 * margin,
    height: centreY + height / 2 + margin - top,
  };
  const unit = Math.max(box.width, box.height) / 100;

  /**
   * A zone's name above its outline's northernmost corner; near a side of the drawing it
   * aligns with the outline's edge on that side, so it stays within the drawing.
   */
  function labelOf(outer: readonly Position[]) {
    const xs = outer.map((position) => project(position)[0]);
    const [minX, maxX] = [Math.min(...xs), Math.max(...xs)];
    const y = Math.min(...outer.map((position) => project(position)[1])) - fontSize * 0.6;
    const middle = (minX + maxX) / 2;
    if (middle < box.x + box.width * LABEL_SIDE) return { x: minX, y, anchor: 'start' } as const;
    if (middle > box.x + box.width * (1 - LABEL_SIDE))
      return { x: maxX, y, anchor: 'end' } as const;
    return { x: middle, y, anchor: 'middle' } as const;
  }

  const pathOf = (polygon: Position[][]) =>
    polygon
      .filter((ring) => ring.length > 0)
      .map((ring, at) => {
        const points = ring.map((position) => project(position).join(' ')).join(' L ');
        // The outline is closed once it has a shape; a hole's ring is closed already.
        return `M ${points}${at > 0 || ring.length >= 3 ? ' Z' : ''}`;
      })
      .join(' ');

  return (
    <figure className="zones-drawing">
      <svg
        viewBox={`${box.x} ${box.y} ${box.width} ${box.height}`}
        aria-hidden="true"
        focusable="false"
        data-testid="zones-drawing"
      >
        {shapes.map((shape) => {
          const colour = zoneColour(shape.index);
          const outer = shape.polygons[0]?.[0] ?? [];
          const label = outer.length > 0 ? labelOf(outer) : null;
          return (
            <g key={shape.index}>
              {shape.polygons.map((polygon, part) => (
                <g key={part}>
                  <path
                    d={pathOf(polygon)}
                    fill={colour}
                    fillOpacity={0.15}
                    fillRule="evenodd"
                    stroke={colour}
                    strokeWidth={2}
                    strokeLinejoin="round"
                    vectorEffect="non-scaling-stroke"
                  />
                  {polygon[0]?.map((position, corner) => {
                    const [x, y] = project(position);
                    return <circle key={corner} cx={x} cy={y} r={unit * 0.7} fill={colour} />;
                  })}
                </g>
              ))}
              {label && (
                <text
                  x={label.x}
                  y={label.y}
                  fontSize={fontSize}
                  textAnchor={label.anchor}
                  fill="#1c2430"
                  stroke="#fff"
                  strokeWidth={fontSize * 0.25}
                  strokeLinejoin="round"
                  paintOrder="stroke"
                >
                  {shape.name}
                </text>
              )}
            </g>
          );
        })}
        {checked && (
          <circle
            cx={project([checked.lng, checked.lat])[0]}
            cy={project([checked.lng, checked.lat])[1]}
            r={unit * 1.8}
            fill={checked.inside ? '#047857' : '#a3141d'}
            stroke="#fff"
            strokeWidth={unit * 0.6}
            data-testid="checked-point"
          />
        )}
      </svg>
      <figcaption className="help">
        {t('drawingCaption')}
        {across > 0 && ` ${t('drawingAcross', { distance: distanceInWords(across) })}`}
        {checked && ` ${t(checked.inside ? 'drawingPointInside' : 'drawingPointOutside')}`}
      </figcaption>
    </figure>
  );
}
