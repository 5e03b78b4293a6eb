import { useEffect, useMemo, useRef, useState } from 'react';
import {
  FormProvider,
  useFieldArray,
  useForm,
  useFormState,
  useWatch,
  type FieldPath,
} from 'react-hook-form';
import { useParams } from 'react-router';
import {
  adminRoutes,
  type CompanyDetails,
  type Form,
  type FormBody,
  formKindSchema,
} from '@frontdesk/protocol';
import { describeError } from '../../../app/errors.ts';
import { useAppStore } from '../../../app/hooks.ts';
import { useServices } from '../../../app/servicesContext.ts';
import { t } from '../../../i18n/messages.ts';
import { EmptyState } from '../../../ui/ListState.tsx';
import { LoadGate } from '../LoadGate.tsx';
import { controlId, errorAt, PathInput } from '../PathInput.tsx';
import { PreviewPane } from '../PreviewPane.tsx';
import { refusalOf, SaveSummary, type ChangeLine, type SaveStatus } from '../SaveSummary.tsx';
import { UnsavedChangesGuard } from '../UnsavedChangesGuard.tsx';
import { useCompanyLoader } from '../useCompanyLoader.ts';
import { FieldEditor } from './FieldEditor.tsx';
import {
  FIELD_TYPES,
  describeFormChanges,
  errorPath,
  formResolver,
  newField,
  previewForm,
  toFormBody,
  toFormDraft,
  typeName,
  type FieldType,
  type FormValues,
} from './formDraft.ts';
import './forms.css';
import { SaveBar } from '../SaveBar.tsx';

type FormKind = 'welcome' | 'rating';

/** The company's form of a kind, as `GET /company/:id` carries it. */
const formOf = (company: CompanyDetails, kind: FormKind): Form | null =>
  kind === 'welcome' ? company.welcomeForm : company.ratingForm;

/** A form's body as the API would compare it (its id aside), or none. */
const bodyOf = (form: Form | null): FormBody | null =>
  form ? toFormBody(toFormDraft(form)) : null;

/** `/console/admin/forms/:kind`: one builder a kind, each with its own draft. */
export function FormBuilderPage() {
  const kind = formKindSchema.safeParse(useParams().kind);
  if (!kind.success) {
    return (
      <p role="alert" className="admin-status">
        {t('pageNotFound')}
      </p>
    );
  }
  return <FormBuilder key={kind.data} kind={kind.data} />;
}

function FormBuilder({ kind }: { kind: FormKind }) {
  const loadCompany = useCompanyLoader();
  return (
    <LoadGate load={loadCompany} loading="formLoading" failed="formLoadFailed">
      {(company) => <FormBuilderForm kind={kind} initial={company} loadCompany={loadCompany} />}
    </LoadGate>
  );
}

/**
 * The builder of the welcome or the rating form (issue 16): the field types the guest app
 * renders, each with its label, answer name, help, whether it is required, a text's longest
 * answer and a choice's options; fields move up and down with buttons. Checked with the API's
 * own schema, saved whole (`PUT`) or removed (`DELETE`) with `If-Match`; the live preview shows
 * the draft form at its stage.
 */
function FormBuilderForm(props: {
  kind: FormKind;
  initial: CompanyDetails;
  loadCompany: () => Promise<CompanyDetails>;
}) {
  const { kind } = props;
  const { api } = useServices();
  const store = useAppStore();
  const [company, setCompany] = useState(props.initial);
  const savedForm = formOf(company, kind);
  const savedBody = useMemo(() => bodyOf(savedForm), [savedForm]);
  const [editing, setEditing] = useState(savedForm !== null);
  const [status, setStatus] = useState<SaveStatus<ChangeLine>>({ kind: 'idle' });
  const [undoTo, setUndoTo] = useState<FormBody | null>(null);
  const [newType, setNewType] = useState<FieldType>('text');
  // The control a move or a removal hands the focus to, once the list has changed.
  const focusNext = useRef<string | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);

  const form = useForm<FormValues, unknown, FormBody>({
    defaultValues: toFormDraft(savedForm),
    resolver: formResolver,
    mode: 'onTouched',
  });
  const { fields, append, remove, move } = useFieldArray({
    control: form.control,
    name: 'fields',
    keyName: 'key',
  });
  const values = useWatch({ control: form.control }) as FormValues;
  const draft = useMemo(() => toFormBody(values), [values]);
  const unsaved = editing && JSON.stringify(draft) !== JSON.stringify(savedBody);
  const { errors } = useFormState({ control: form.control, name: 'fields' });
  const listError = errorAt(errors, 'fields.root');

  // A moved or removed field takes the focus along (the button pressed may have gone).
  useEffect(() => {
    if (!focusNext.current) return;
    (document.getElementById(focusNext.current) ?? addButton.current)?.focus();
    focusNext.current = null;
  }, [fields]);

  const options = () => ({
    params: { id: String(company.id), kind },
    token: store.getState().auth.login?.access_token,
    ifMatch: company.version,
  });

  /** Puts `body` in place of the saved form (`null`: removes it); then the company anew. */
  async function replace(body: FormBody | null): Promise<CompanyDetails> {
    if (body) await api(adminRoutes.saveCompanyForm, { ...options(), body });
    else await api(adminRoutes.deleteCompanyForm, options());
    // The version the next change names, and the form as guests now get it.
    return props.loadCompany();
  }

  function applied(next: CompanyDetails) {
    const stored = formOf(next, kind);
    setCompany(next);
    setEditing(stored !== null);
    form.reset(toFormDraft(stored));
  }

  function refused(error: unknown) {
    setStatus(
      refusalOf(error, (field, message) =>
        form.setError(errorPath(field) as FieldPath<FormValues>, { type: 'server', message }),
      ),
    );
  }

  async function change(body: FormBody | null) {
    const before = savedBody;
    setStatus({ kind: 'saving' });
    try {
      applied(await replace(body));
      setUndoTo(before);
      setStatus({ kind: 'saved', changes: describeFormChanges(before, body) });
    } catch (error) {
      refused(error);
    }
  }

  const save = form.handleSubmit(
    (body) => change(body),
    () => setStatus({ kind: 'failed', message: t('saveInvalid') }),
  );

  async function undo(changes: ChangeLine[]) {
    setStatus({ kind: 'undoing', changes });
    try {
      applied(await replace(undoTo));
      setUndoTo(null);
      setStatus({ kind: 'undone' });
    } catch (error) {
      refused(error);
    }
  }

  /** After a 412: the company as it is now, with this draft kept to save again. */
  async function reload() {
    try {
      setCompany(await props.loadCompany());
      setStatus({ kind: 'idle' });
    } catch (error) {
      setStatus({ kind: 'failed', message: t('formLoadFailed', { reason: describeError(error) }) });
    }
  }

  const previewed = useMemo<CompanyDetails>(() => {
    const shown = editing ? previewForm(values, savedForm?.id ?? 1) : null;
    return kind === 'welcome'
      ? { ...company, welcomeForm: shown }
      : // The rating page shows the form only when the company asks for it: here it always does.
        { ...company, ratingForm: shown, advanceRating: true, showRatingPage: true };
  }, [company, editing, kind, savedForm, values]);

  const busy = status.kind === 'saving' || status.kind === 'undoing';
  const titleId = `form-builder-${kind}-title`;
  return (
    <FormProvider {...form}>
      <div className="settings-layout">
        <form
          className="settings-form form-builder"
          noValidate
          aria-busy={busy}
          aria-labelledby={titleId}
          onSubmit={(event) => void save(event)}
        >
          <h2 id={titleId} className="admin-page-title">
            {t(kind === 'welcome' ? 'group_welcomeForm' : 'group_ratingForm')}
          </h2>
          <p className="help">{t(kind === 'welcome' ? 'formWelcomeIntro' : 'formRatingIntro')}</p>
          {kind === 'welcome' &&
            company.welcomeFormTitle &&
            company.welcomeFormTitle !== draft.title && (
              <p className="help" data-testid="title-override">
                {t('formTitleOverridden', { title: company.welcomeFormTitle })}
              </p>
            )}
          {kind === 'rating' && !company.advanceRating && (
            <p className="help" data-testid="rating-form-off">
              {t('formRatingOff')}
            </p>
          )}
          <SaveSummary
            status={status}
            describe={(line) => line}
            onUndo={(changes) => void undo(changes)}
            onReload={() => void reload()}
            onDismiss={() => setStatus({ kind: 'idle' })}
          />
          {editing ? (
            <>
              <section className="settings-group" aria-labelledby={`${titleId}-fields`}>
                <PathInput
                  path="title"
                  label={t('formTitleLabel')}
                  // The rating page's heading is its own text (ratingPageMsg), not the form's title.
                  help={kind === 'rating' ? t('formRatingTitleHelp') : undefined}
                  input={{ maxLength: 200 }}
                />
                <h3 id={`${titleId}-fields`}>{t('formFields')}</h3>
                {fields.length === 0 && <EmptyState title={t('formNoFields')} />}
                <ol className="form-field-list">
                  {fields.map((field, index) => (
                    <FieldEditor
                      key={field.key}
                      index={index}
                      count={fields.length}
                      onMove={(to, button) => {
                        move(index, to);
                        // At an end the pressed button is disabled: its other one keeps the focus.
                        const atEnd = button === 'up' ? to === 0 : to === fields.length - 1;
                        const kept = atEnd ? (button === 'up' ? 'down' : 'up') : button;
                        focusNext.current = `${controlId(`fields.${to}`)}-${kept}`;
                      }}
                      onRemove={() => {
                        remove(index);
                        const next = Math.min(index, fields.length - 2);
                        focusNext.current =
                          next >= 0 ? controlId(`fields.${next}.label`) : `${titleId}-add`;
                      }}
                    />
                  ))}
                </ol>
                {listError && (
                  <p className="field-error" role="alert">
                    {listError}
                  </p>
                )}
                <div className="form-add">
                  <div className="field">
                    <label htmlFor={`${titleId}-new-type`}>{t('formNewFieldType')}</label>
                    <select
                      id={`${titleId}-new-type`}
                      value={newType}
                      onChange={(event) => setNewType(event.target.value as FieldType)}
                    >
                      {FIELD_TYPES.map((type) => (
                        <option key={type} value={type}>
                          {typeName(type)}
                        </option>
                      ))}
                    </select>
                  </div>
                  <button
                    type="button"
                    className="secondary"
                    id={`${titleId}-add`}
                    ref={addButton}
                    onClick={() =>
                      append(newField(newType, form.getValues('fields')), {
                        focusName: `fields.${fields.length}.label`,
                      })
                    }
                  >
                    {t('formAddField')}
                  </button>
                </div>
              </section>
              {savedForm && (
                <section className="settings-group" aria-labelledby={`${titleId}-remove`}>
                  <h3 id={`${titleId}-remove`}>{t('formRemoveTitle')}</h3>
                  <p className="help">
                    {t(kind === 'welcome' ? 'formRemoveWelcome' : 'formRemoveRating')}
                  </p>
                  <div>
                    <button
                      type="button"
                      className="danger"
                      disabled={busy}
                      onClick={() => void change(null)}
                    >
                      {t('formRemove')}
                    </button>
                  </div>
                </section>
              )}
            </>
          ) : (
            <section className="settings-group">
              <p>{t(kind === 'welcome' ? 'formNoneWelcome' : 'formNoneRating')}</p>
              <div>
                <button
                  type="button"
                  onClick={() => {
                    form.reset({
                      title: '',
                      fields: [newField(kind === 'rating' ? 'rating' : 'text', [])],
                    });
                    setEditing(true);
                  }}
                >
                  {t('formCreate')}
                </button>
              </div>
            </section>
          )}
          <SaveBar
            unsaved={unsaved ? t('formUnsaved') : null}
            busy={busy}
            saving={status.kind === 'saving'}
            onDiscard={() => {
              form.reset(toFormDraft(savedForm));
              setEditing(savedForm !== null);
              setStatus({ kind: 'idle' });
            }}
          />
        </form>
        <PreviewPane company={previewed} stage={kind} />
      </div>
      <UnsavedChangesGuard unsaved={unsaved} />
    </FormProvider>
  );
}
