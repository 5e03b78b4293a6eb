import { useEffect, useId, useRef, useState } from 'react';
import { useFieldArray, useFormContext, useFormState, useWatch } from 'react-hook-form';
import { t } from '../../../i18n/messages.ts';
import { controlId, errorAt, PathInput } from '../PathInput.tsx';
import { zoneColour } from './ZonesDrawing.tsx';
import {
  describeArea,
  newCorner,
  parsePastedArea,
  type OutlineDraft,
  type ZonesValues,
} from './zonesDraft.ts';

/**
 * One zone of the service area: its name, its outline's corners (latitude and longitude, one
 * row each: add, remove), and a box to paste its shape as GeoJSON instead. The swatch beside its
 * name is its colour in the drawing.
 */
export function ZoneFields(props: { index: number; onRemove: () => void }) {
  const { index } = props;
  const { control } = useFormContext<ZonesValues>();
  const { fields, remove, replace } = useFieldArray({
    control,
    name: `zones.${index}.outlines`,
    keyName: 'key',
  });
  const name = useWatch({ control, name: `zones.${index}.name` });
  const { errors } = useFormState<ZonesValues>({ control, name: `zones.${index}` });
  const areaError = errorAt(errors, `zones.${index}.area`);
  const headingId = useId();
  const number = String(index + 1);
  const title = name.trim()
    ? t('zoneNumberNamed', { n: number, name: name.trim() })
    : t('zoneNumber', { n: number });
  return (
    <li className="zone-card" data-testid="zone">
      <fieldset aria-labelledby={headingId}>
        <legend id={headingId}>
          <svg className="zone-swatch" viewBox="0 0 10 10" aria-hidden="true">
            <rect width="10" height="10" rx="2" fill={zoneColour(index)} />
          </svg>
          <span dir="auto">{title}</span>
        </legend>
        <PathInput
          path={`zones.${index}.name`}
          label={t('zoneName')}
          help={t('zoneNameHelp')}
          input={{ maxLength: 100 }}
        />
        {fields.map((outline, part) => (
          <OutlineFields
            key={outline.key}
            zone={index}
            part={part}
            parts={fields.length}
            onRemove={() => remove(part)}
          />
        ))}
        {areaError && <p className="field-error">{areaError}</p>}
        <PasteGeoJson zone={index} title={title} onShape={(outlines) => replace(outlines)} />
        <div>
          <button
            type="button"
            className="secondary"
            aria-label={t('zoneRemoveLabel', { n: number })}
            onClick={props.onRemove}
          >
            {t('zoneRemove')}
          </button>
        </div>
      </fieldset>
    </li>
  );
}

/** One outline's corners; a zone of several parts names each and lets one go. */
function OutlineFields(props: { zone: number; part: number; parts: number; onRemove: () => void }) {
  const { zone, part } = props;
  const path = `zones.${zone}.outlines.${part}` as const;
  const { control } = useFormContext<ZonesValues>();
  const { fields, append, remove } = useFieldArray({
    control,
    name: `${path}.corners`,
    keyName: 'key',
  });
  const holes = useWatch({ control, name: `${path}.holes` });
  const { errors } = useFormState<ZonesValues>({ control, name: `${path}.corners` });
  const listError = errorAt(errors, `${path}.corners.root`);
  const legendId = useId();
  const addId = `${controlId(path)}-add`;
  // A removed corner hands the focus on, once the list has changed.
  const focusNext = useRef<string | null>(null);
  useEffect(() => {
    if (!focusNext.current) return;
    document.getElementById(focusNext.current)?.focus();
    focusNext.current = null;
  }, [fields]);

  return (
    <fieldset
      className="zone-outline"
      aria-labelledby={legendId}
      aria-describedby={listError ? `${legendId}-error` : undefined}
    >
      <legend id={legendId}>
        {props.parts > 1
          ? t('zonePart', { n: String(part + 1), count: String(props.parts) })
          : t('zoneCornersTitle')}
      </legend>
      <p className="help">{t('zoneCornersHelp')}</p>
      <ol className="zone-corners">
        {fields.map((corner, at) => {
          const n = String(at + 1);
          return (
            <li key={corner.key}>
              <div className="zone-corner" role="group" aria-label={t('zoneCorner', { n })}>
                <span className="zone-corner-number" aria-hidden="true">
                  {n}
                </span>
                {(['lat', 'lng'] as const).map((axis) => (
                  <PathInput
                    key={axis}
                    path={`${path}.corners.${at}.${axis}`}
                    label={t(axis === 'lat' ? 'zoneLatitude' : 'zoneLongitude')}
                    input={{
                      inputMode: 'decimal',
                      autoComplete: 'off',
                      spellCheck: false,
                      placeholder: axis === 'lat' ? '51.5072' : '-0.1276',
                    }}
                  />
                ))}
                <button
                  type="button"
                  className="secondary zone-corner-remove"
                  aria-label={t('zoneRemoveCorner', { n })}
                  onClick={() => {
                    remove(at);
                    const next = Math.min(at, fields.length - 2);
                    focusNext.current =
                      next >= 0 ? controlId(`${path}.corners.${next}.lat`) : addId;
                  }}
                >
                  {t('adminRemove')}
                </button>
              </div>
            </li>
          );
        })}
      </ol>
      {listError && (
        <p id={`${legendId}-error`} className="field-error">
          {listError}
        </p>
      )}
      {holes.length > 0 && <p className="help">{t('zoneHolesKept', { count: holes.length })}</p>}
      <div className="zone-outline-actions">
        <button
          type="button"
          className="secondary"
          id={addId}
          onClick={() => append(newCorner(), { focusName: `${path}.corners.${fields.length}.lat` })}
        >
          {t('zoneAddCorner')}
        </button>
        {props.parts > 1 && (
          <button type="button" className="secondary" onClick={props.onRemove}>
            {t('zoneRemovePart', { n: String(part + 1) })}
          </button>
        )}
      </div>
    </fieldset>
  );
}

/**
 * A zone's shape pasted as GeoJSON (from geojson.io, QGIS, a map export): checked with the
 * protocol's schema, what is wrong said at the box; a good shape replaces the zone's corners.
 */
function PasteGeoJson(props: {
  zone: number;
  title: string;
  onShape: (outlines: OutlineDraft[]) => void;
}) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const id = controlId(`zones.${props.zone}.geojson`);
  return (
    <details className="zone-geojson">
      <summary>{t('geojsonSummary')}</summary>
      <div className="field">
        <label htmlFor={id}>{t('geojsonLabel', { zone: props.title })}</label>
        <textarea
          id={id}
          rows={5}
          spellCheck={false}
          dir="ltr"
          value={text}
          placeholder='{"type": "Polygon", "coordinates": [[[-0.14, 51.50], …]]}'
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-help${problem ? ` ${id}-error` : ''}`}
          onChange={(event) => {
            setText(event.target.value);
            setProblem(null);
            setDone(null);
          }}
        />
        <p id={`${id}-help`} className="help">
          {t('geojsonHelp')}
        </p>
        {problem && (
          <p id={`${id}-error`} className="field-error" role="alert">
            {problem}
          </p>
        )}
      </div>
      <div className="zone-geojson-actions">
        <button
          type="button"
          className="secondary"
          disabled={text.trim() === ''}
          onClick={() => {
            const pasted = parsePastedArea(text);
            if (!pasted.ok) {
              setProblem(pasted.problem);
              return;
            }
            props.onShape(pasted.outlines);
            setText('');
            setDone(t('geojsonDone', { area: describeArea(pasted.outlines) }));
          }}
        >
          {t('geojsonUse')}
        </button>
        <p role="status" className="help">
          {done}
        </p>
      </div>
    </details>
  );
}
