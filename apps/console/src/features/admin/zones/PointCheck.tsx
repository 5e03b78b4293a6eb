import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { adminRoutes, ApiRequestError } from '@frontdesk/protocol';
import { describeError } from '../../../app/errors.ts';
import { useAppStore } from '../../../app/hooks.ts';
import { useServices } from '../../../app/servicesContext.ts';
import { intlLocale, t } from '../../../i18n/messages.ts';
import { PathInput } from '../PathInput.tsx';
import { pointResolver, type PointBody, type PointValues } from './zonesDraft.ts';

/** A point the API was asked about, with its answer. */
export type CheckedPoint = PointBody & { inside: boolean; zones: { id: number; name: string }[] };

type Progress =
  | { kind: 'idle' }
  | { kind: 'locating' }
  | { kind: 'checking' }
  | { kind: 'failed'; message: string };

// How long the browser may look for the admin's position (GeolocationPositionError.TIMEOUT).
const LOCATING_TIMEOUT_MS = 20_000;
const DEGREE_DIGITS = 6; // about 10 cm: finer than any phone knows where it is

/** What the API answered, in words. */
function answerInWords(checked: CheckedPoint): string {
  if (checked.zones.length > 0) {
    const names = checked.zones.map((zone) => `“${zone.name}”`);
    // "A, B and C" in the sentence's own language (the console's texts are English).
    return t('checkInside', { zones: new Intl.ListFormat(intlLocale()).format(names) });
  }
  return checked.inside ? t('checkNoZones') : t('checkOutside');
}

function locatingProblem(error: GeolocationPositionError): string {
  if (error.code === error.PERMISSION_DENIED) return t('checkLocationDenied');
  return t('checkLocationUnavailable');
}

/**
 * "Is this point inside?": a latitude and longitude typed, or the browser's own position, asked
 * of the API (`POST /company/:id/geofence/check-point`), which tests the saved zones exactly as
 * it tests a guest. The answer names the zones holding the point; the drawing shows it.
 */
export function PointCheck(props: {
  companyId: number;
  unsaved: boolean;
  checked: CheckedPoint | null;
  onChecked: (checked: CheckedPoint | null) => void;
}) {
  const { api } = useServices();
  const store = useAppStore();
  const [progress, setProgress] = useState<Progress>({ kind: 'idle' });
  const [accuracy, setAccuracy] = useState<number | null>(null);
  const form = useForm<PointValues, unknown, PointBody>({
    defaultValues: { lat: '', lng: '' },
    resolver: pointResolver,
    mode: 'onTouched',
  });

  const check = form.handleSubmit(async (point) => {
    setProgress({ kind: 'checking' });
    try {
      const { data } = await api(adminRoutes.checkGeofencePoint, {
        params: { id: String(props.companyId) },
        token: store.getState().auth.login?.access_token,
        body: point,
      });
      props.onChecked({ ...point, ...data });
      setProgress({ kind: 'idle' });
    } catch (error) {
      if (error instanceof ApiRequestError) {
        for (const [field, message] of Object.entries(error.fields)) {
          if (field === 'lat' || field === 'lng') form.setError(field, { type: 'server', message });
        }
      }
      props.onChecked(null);
      setProgress({ kind: 'failed', message: t('checkFailed', { reason: describeError(error) }) });
    }
  });

  function locateMe() {
    setProgress({ kind: 'locating' });
    navigator.geolocation.getCurrentPosition(
      (position) => {
        const { latitude, longitude } = position.coords;
        form.setValue('lat', latitude.toFixed(DEGREE_DIGITS), { shouldValidate: true });
        form.setValue('lng', longitude.toFixed(DEGREE_DIGITS), { shouldValidate: true });
        setAccuracy(position.coords.accuracy);
        void check();
      },
      (error) => setProgress({ kind: 'failed', message: locatingProblem(error) }),
      { enableHighAccuracy: true, timeout: LOCATING_TIMEOUT_MS },
    );
  }

  /** A point typed by hand was not located: its accuracy no longer applies. */
  const typed = { onChange: () => setAccuracy(null) };
  const busy = progress.kind === 'locating' || progress.kind === 'checking';
  const { checked } = props;
  return (
    <FormProvider {...form}>
      <form
        className="settings-group point-check"
        noValidate
        aria-labelledby="point-check-title"
        aria-busy={busy}
        onSubmit={(event) => void check(event)}
      >
        <h2 id="point-check-title">{t('checkTitle')}</h2>
        <p className="help">{t('checkHelp')}</p>
        <div className="point-check-fields">
          <PathInput
            path="lat"
            label={t('zoneLatitude')}
            input={{ inputMode: 'decimal', autoComplete: 'off', spellCheck: false }}
            register={typed}
          />
          <PathInput
            path="lng"
            label={t('zoneLongitude')}
            input={{ inputMode: 'decimal', autoComplete: 'off', spellCheck: false }}
            register={typed}
          />
        </div>
        <div className="point-check-actions">
          <button type="submit" disabled={busy}>
            {progress.kind === 'checking' ? t('checking') : t('checkPoint')}
          </button>
          {'geolocation' in navigator && (
            <button type="button" className="secondary" disabled={busy} onClick={locateMe}>
              {progress.kind === 'locating' ? t('checkLocating') : t('checkUseMyLocation')}
            </button>
          )}
        </div>
        <div role="status" className="point-check-answer" data-testid="check-answer">
          {checked && (
            <p className={checked.inside ? 'point-inside' : 'point-outside'}>
              {answerInWords(checked)}
            </p>
          )}
          {checked && accuracy !== null && (
            <p className="help">{t('checkAccuracy', { metres: String(Math.round(accuracy)) })}</p>
          )}
          {props.unsaved && <p className="help">{t('checkSavedOnly')}</p>}
        </div>
        {progress.kind === 'failed' && (
          <p role="alert" className="field-error">
            {progress.message}
          </p>
        )}
      </form>
    </FormProvider>
  );
}
