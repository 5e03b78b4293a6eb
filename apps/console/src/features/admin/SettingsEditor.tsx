import { useMemo, useState } from 'react';
import { FormProvider, useForm, useWatch, type FieldPath } from 'react-hook-form';
import { Outlet, useMatch } from 'react-router';
import { adminRoutes, type CompanyDetails } from '@frontdesk/protocol';
import { describeError } from '../../app/errors.ts';
import { useAppStore } from '../../app/hooks.ts';
import { useServices } from '../../app/servicesContext.ts';
import { t } from '../../i18n/messages.ts';
import { LoadGate } from './LoadGate.tsx';
import { PreviewPane } from './PreviewPane.tsx';
import { refusalOf, SaveSummary, type SaveStatus } from './SaveSummary.tsx';
import type { SettingsOutletContext } from './SettingsGroupFields.tsx';
import {
  changedFields,
  describeChanges,
  previewCompany,
  settingsResolver,
  toDraft,
  undoBody,
  type FieldChange,
  type SavedSettings,
  type SettingsValues,
} from './settingsDraft.ts';
import { SETTINGS_FIELDS, SETTINGS_GROUPS } from './settingsGroups.ts';
import { UnsavedChangesGuard } from './UnsavedChangesGuard.tsx';
import { useCompanyLoader } from './useCompanyLoader.ts';
import { SaveBar } from './SaveBar.tsx';

/**
 * The settings of the company (the groups' routes share one draft, so moving between groups
 * keeps what was typed), saved together, beside the live preview.
 */
export function SettingsEditor() {
  const loadCompany = useCompanyLoader();
  return (
    <LoadGate load={loadCompany} loading="settingsLoading" failed="settingsLoadFailed">
      {(company) => <SettingsForm initial={company} loadCompany={loadCompany} />}
    </LoadGate>
  );
}

const SETTINGS_PATH = new RegExp(`^/admin/(${SETTINGS_GROUPS.map((g) => g.path).join('|')})/?$`);
const FORM_FIELDS = new Set<string>(SETTINGS_FIELDS.map((spec) => spec.name));

function SettingsForm(props: {
  initial: CompanyDetails;
  loadCompany: () => Promise<CompanyDetails>;
}) {
  const { api } = useServices();
  const store = useAppStore();
  const [saved, setSaved] = useState(props.initial);
  const [status, setStatus] = useState<SaveStatus>({ kind: 'idle' });
  const form = useForm<SettingsValues, SavedSettings>({
    defaultValues: toDraft(props.initial),
    resolver: settingsResolver,
    context: saved,
    mode: 'onTouched',
  });
  const values = useWatch({ control: form.control }) as SettingsValues;
  const changes = useMemo(() => changedFields(values, saved), [values, saved]);
  const changeCount = Object.keys(changes).length;
  const draftCompany = useMemo(() => previewCompany(saved, values), [saved, values]);
  const group = useMatch('/admin/:group')?.params.group;
  const stage = SETTINGS_GROUPS.find((g) => g.path === group)?.stage ?? 'selection';

  /** Sends a change of the settings against the version this draft was made from. */
  const patch = (body: ReturnType<typeof changedFields>) =>
    api(adminRoutes.updateCompany, {
      params: { id: String(saved.id) },
      body,
      token: store.getState().auth.login?.access_token,
      ifMatch: saved.version,
    });

  /** The API's refusal as the form shows it: 412 as "reload", named fields at their fields. */
  function refused(error: unknown) {
    setStatus(
      refusalOf(error, (field, message) => {
        const name = field.split('.')[0] ?? field;
        if (FORM_FIELDS.has(name)) {
          form.setError(field as FieldPath<SettingsValues>, { type: 'server', message });
        }
      }),
    );
  }

  const save = form.handleSubmit(
    async (draft) => {
      const body = changedFields(draft, saved);
      if (Object.keys(body).length === 0) return;
      setStatus({ kind: 'saving' });
      try {
        const { data } = await patch(body);
        const summary = describeChanges(body, saved);
        setSaved(data);
        form.reset(toDraft(data));
        setStatus({ kind: 'saved', changes: summary });
      } catch (error) {
        refused(error);
      }
    },
    () => setStatus({ kind: 'failed', message: t('saveInvalid') }),
  );

  async function undo(changed: FieldChange[]) {
    setStatus({ kind: 'undoing', changes: changed });
    try {
      const { data } = await patch(undoBody(changed));
      setSaved(data);
      // What was typed since the save stays; the undone fields go back.
      form.reset(toDraft(data), { keepDirtyValues: true });
      setStatus({ kind: 'undone' });
    } catch (error) {
      refused(error);
    }
  }

  /** After a 412: the settings as they are now, with this draft's changes kept on top. */
  async function reload() {
    try {
      const fresh = await props.loadCompany();
      setSaved(fresh);
      form.reset(toDraft(fresh), { keepDirtyValues: true });
      setStatus({ kind: 'idle' });
    } catch (error) {
      setStatus({
        kind: 'failed',
        message: t('settingsLoadFailed', { reason: describeError(error) }),
      });
    }
  }

  const busy = status.kind === 'saving' || status.kind === 'undoing';
  return (
    <FormProvider {...form}>
      <div className="settings-layout">
        <form
          className="settings-form"
          noValidate
          aria-busy={busy}
          aria-label={t('companySettings')}
          onSubmit={(event) => void save(event)}
        >
          <SaveSummary
            status={status}
            onUndo={(changed) => void undo(changed)}
            onReload={() => void reload()}
            onDismiss={() => setStatus({ kind: 'idle' })}
          />
          <Outlet
            context={
              {
                companyId: saved.id,
                version: saved.version,
                reload: () => void reload(),
              } satisfies SettingsOutletContext
            }
          />
          <SaveBar
            unsaved={changeCount === 0 ? null : t('unsavedCount', { count: changeCount })}
            busy={busy}
            saving={status.kind === 'saving'}
            onDiscard={() => {
              form.reset(toDraft(saved));
              setStatus({ kind: 'idle' });
            }}
          />
        </form>
        <PreviewPane company={draftCompany} stage={stage} />
      </div>
      {/* Moving between the groups keeps the draft and needs no asking. */}
      <UnsavedChangesGuard
        unsaved={changeCount > 0}
        keepsDraft={(pathname) => SETTINGS_PATH.test(pathname)}
      />
    </FormProvider>
  );
}
