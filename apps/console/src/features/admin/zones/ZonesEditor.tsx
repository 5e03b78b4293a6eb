import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { FormProvider, useFieldArray, useForm, useWatch, type FieldPath } from 'react-hook-form';
import { Link } from 'react-router';
import { adminRoutes, type CompanyDetails, type GeofenceZone } from '@frontdesk/protocol';
import { describeError } from '../../../app/errors.ts';
import { useAppSelector, useAppStore } from '../../../app/hooks.ts';
import { useServices } from '../../../app/servicesContext.ts';
import { t } from '../../../i18n/messages.ts';
import { EmptyState } from '../../../ui/ListState.tsx';
import { LoadGate } from '../LoadGate.tsx';
import { controlId, errorAt } from '../PathInput.tsx';
import { refusalOf, SaveSummary, type ChangeLine, type SaveStatus } from '../SaveSummary.tsx';
import { UnsavedChangesGuard } from '../UnsavedChangesGuard.tsx';
import { useCompanyLoader } from '../useCompanyLoader.ts';
import { PointCheck, type CheckedPoint } from './PointCheck.tsx';
import { ZoneFields } from './ZoneFields.tsx';
import { ZonesDrawing } from './ZonesDrawing.tsx';
import {
  describeZoneChanges,
  draftPath,
  issuePath,
  newZone,
  toBody,
  toDraft,
  zonesResolver,
  type ZonesBody,
  type ZonesValues,
} from './zonesDraft.ts';
import './zones.css';
import { SaveBar } from '../SaveBar.tsx';

type Loaded = { zones: GeofenceZone[]; company: CompanyDetails };

/**
 * The company's service area at `/console/admin/zones` (issue 16): its named zones, each an
 * outline of corners typed as latitude and longitude (or pasted as GeoJSON), checked with the
 * API's own schema and saved whole with `If-Match`; beside them "is this point inside?" asked of
 * the API, and a plain drawing of the outlines.
 */
export function ZonesEditor() {
  const { api } = useServices();
  const store = useAppStore();
  const loadCompany = useCompanyLoader();
  const companyId = useAppSelector((state) => state.auth.login?.user.companyId);
  const loadZones = useCallback(async (): Promise<GeofenceZone[]> => {
    const { data } = await api(adminRoutes.companyGeofence, {
      params: { id: String(companyId) },
      token: store.getState().auth.login?.access_token,
    });
    return data;
  }, [api, companyId, store]);
  const load = useCallback(async (): Promise<Loaded> => {
    const [zones, company] = await Promise.all([loadZones(), loadCompany()]);
    return { zones, company };
  }, [loadZones, loadCompany]);
  return (
    <LoadGate load={load} loading="zonesLoading" failed="zonesLoadFailed">
      {(loaded) => <ZonesForm initial={loaded} loadZones={loadZones} loadCompany={loadCompany} />}
    </LoadGate>
  );
}

function ZonesForm(props: {
  initial: Loaded;
  loadZones: () => Promise<GeofenceZone[]>;
  loadCompany: () => Promise<CompanyDetails>;
}) {
  const { api } = useServices();
  const store = useAppStore();
  const [saved, setSaved] = useState(props.initial.zones);
  const [company, setCompany] = useState(props.initial.company);
  const [status, setStatus] = useState<SaveStatus<ChangeLine>>({ kind: 'idle' });
  // What the last save replaced, for its Undo.
  const [undoTo, setUndoTo] = useState<ZonesBody | null>(null);
  const [checked, setChecked] = useState<CheckedPoint | null>(null);
  // The control a removal hands the focus to, once the list has changed.
  const focusNext = useRef<string | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);

  const savedDraft = useMemo(() => toDraft(saved), [saved]);
  const form = useForm<ZonesValues, unknown, ZonesBody>({
    defaultValues: savedDraft,
    resolver: zonesResolver,
    mode: 'onTouched',
  });
  const { fields, append, remove } = useFieldArray({
    control: form.control,
    name: 'zones',
    keyName: 'key',
  });
  const values = useWatch({ control: form.control }) as ZonesValues;
  const unsaved = JSON.stringify(toBody(values)) !== JSON.stringify(toBody(savedDraft));
  const listError = errorAt(form.formState.errors, 'zones.root');

  useEffect(() => {
    if (!focusNext.current) return;
    (document.getElementById(focusNext.current) ?? addButton.current)?.focus();
    focusNext.current = null;
  }, [fields]);

  /** Puts `body` in place of the saved zones; then the company's new version. */
  async function replace(body: ZonesBody): Promise<GeofenceZone[]> {
    const { data } = await api(adminRoutes.saveCompanyGeofence, {
      params: { id: String(company.id) },
      token: store.getState().auth.login?.access_token,
      ifMatch: company.version,
      body,
    });
    setCompany(await props.loadCompany());
    return data;
  }

  function applied(zones: GeofenceZone[]) {
    setSaved(zones);
    form.reset(toDraft(zones));
    // A point checked against the old zones says nothing of the new ones.
    setChecked(null);
  }

  function refused(error: unknown, sent: ZonesValues) {
    setStatus(
      refusalOf(error, (field, message) => {
        const path = draftPath(issuePath(field), sent) as FieldPath<ZonesValues>;
        form.setError(path, { type: 'server', message });
      }),
    );
  }

  const save = form.handleSubmit(
    async (body) => {
      const sent = form.getValues();
      setStatus({ kind: 'saving' });
      try {
        const zones = await replace(body);
        setUndoTo(toBody(savedDraft));
        setStatus({ kind: 'saved', changes: describeZoneChanges(savedDraft, sent) });
        applied(zones);
      } catch (error) {
        refused(error, sent);
      }
    },
    () => setStatus({ kind: 'failed', message: t('saveInvalid') }),
  );

  async function undo(changes: ChangeLine[]) {
    if (!undoTo) return;
    setStatus({ kind: 'undoing', changes });
    try {
      applied(await replace(undoTo));
      setUndoTo(null);
      setStatus({ kind: 'undone' });
    } catch (error) {
      refused(error, form.getValues());
    }
  }

  /** After a 412: the zones and version saved since, with this draft kept to save again. */
  async function reload() {
    try {
      const [zones, fresh] = await Promise.all([props.loadZones(), props.loadCompany()]);
      setSaved(zones);
      setCompany(fresh);
      setStatus({ kind: 'idle' });
    } catch (error) {
      setStatus({
        kind: 'failed',
        message: t('zonesLoadFailed', { reason: describeError(error) }),
      });
    }
  }

  const busy = status.kind === 'saving' || status.kind === 'undoing';
  return (
    <FormProvider {...form}>
      <div className="settings-layout zones-layout">
        <form
          className="settings-form zones-editor"
          noValidate
          aria-busy={busy}
          aria-labelledby="zones-title"
          onSubmit={(event) => void save(event)}
        >
          <h2 id="zones-title" className="admin-page-title">
            {t('group_zones')}
          </h2>
          <p className="help">{t('zonesIntro')}</p>
          <p className="help" data-testid="location-note">
            {company.requestLocation ? t('zonesChecked') : t('zonesNotChecked')}{' '}
            <Link to="../location">{t('zonesLocationLink')}</Link>
          </p>
          <SaveSummary
            status={status}
            describe={(line) => line}
            onUndo={(changes) => void undo(changes)}
            onReload={() => void reload()}
            onDismiss={() => setStatus({ kind: 'idle' })}
          />
          {fields.length === 0 && (
            <EmptyState title={t('zonesNone')} hint={t('zonesEmptyHint')} testId="no-zones" />
          )}
          <ol className="zone-list">
            {fields.map((zone, index) => (
              <ZoneFields
                key={zone.key}
                index={index}
                onRemove={() => {
                  remove(index);
                  const next = Math.min(index, fields.length - 2);
                  focusNext.current = next >= 0 ? controlId(`zones.${next}.name`) : null;
                }}
              />
            ))}
          </ol>
          {listError && (
            <p className="field-error" role="alert">
              {listError}
            </p>
          )}
          <div>
            <button
              type="button"
              className="secondary"
              ref={addButton}
              onClick={() => append(newZone(), { focusName: `zones.${fields.length}.name` })}
            >
              {t('zoneAdd')}
            </button>
          </div>
          <SaveBar
            unsaved={unsaved ? t('zonesUnsaved') : null}
            busy={busy}
            saving={status.kind === 'saving'}
            onDiscard={() => {
              form.reset(savedDraft);
              setStatus({ kind: 'idle' });
            }}
          />
        </form>
        <aside className="zones-aside" aria-label={t('zonesAside')}>
          <PointCheck
            companyId={company.id}
            unsaved={unsaved}
            checked={checked}
            onChecked={setChecked}
          />
          <ZonesDrawing values={values} checked={checked} />
        </aside>
      </div>
      <UnsavedChangesGuard unsaved={unsaved} />
    </FormProvider>
  );
}
