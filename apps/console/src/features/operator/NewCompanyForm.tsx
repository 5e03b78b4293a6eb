import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  ApiRequestError,
  newCompanySchema,
  type NewCompany,
  type OperatorCreatedCompany,
} from '@frontdesk/protocol';
import { describeError } from '../../app/errors.ts';
import { t, type MessageKey } from '../../i18n/messages.ts';
import { sessionEnded, type OperatorRequests } from './operatorApi.ts';

type Field = keyof NewCompany;
type FieldErrors = Partial<Record<Field, string>>;

const FIELDS: { name: Field; label: MessageKey; type: 'text' | 'email'; maxLength: number }[] = [
  { name: 'name', label: 'operatorCompanyName', type: 'text', maxLength: 100 },
  { name: 'adminEmail', label: 'operatorAdminEmail', type: 'email', maxLength: 320 },
  { name: 'adminName', label: 'operatorAdminName', type: 'text', maxLength: 100 },
];

const isField = (name: string): name is Field => FIELDS.some((field) => field.name === name);

/** The errors an API refusal names at this form's fields (400 invalid, 409 e-mail taken). */
function fieldErrorsOf(error: unknown): FieldErrors {
  if (!(error instanceof ApiRequestError)) return {};
  return Object.fromEntries(Object.entries(error.fields).filter(([name]) => isField(name)));
}

/**
 * "New company": its name and its first admin, checked with the API's own schema before they are
 * sent; what the API refuses shows at the field it names (a taken e-mail at the admin's e-mail),
 * anything else above the button. The first field in error takes the focus.
 */
export function NewCompanyForm(props: {
  requests: OperatorRequests;
  onCreated: (company: OperatorCreatedCompany) => void;
  onSessionEnded: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const failureRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    const first = FIELDS.find((field) => errors[field.name]);
    if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first.name}"]`)?.focus();
  }, [errors]);
  useEffect(() => {
    if (failure) failureRef.current?.focus();
  }, [failure]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const values = new FormData(form);
    const adminName = String(values.get('adminName')).trim();
    const parsed = newCompanySchema.safeParse({
      name: String(values.get('name')),
      adminEmail: String(values.get('adminEmail')).trim(),
      // Left empty, the API names the admin after their e-mail.
      ...(adminName ? { adminName } : {}),
    });
    setFailure(null);
    if (!parsed.success) {
      const found: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const name = String(issue.path[0]);
        if (isField(name)) found[name] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const created = await props.requests.createCompany(parsed.data);
      setBusy(false);
      form.reset();
      props.onCreated(created);
    } catch (error) {
      setBusy(false);
      if (sessionEnded(error)) {
        props.onSessionEnded();
        return;
      }
      const named = fieldErrorsOf(error);
      if (Object.keys(named).length > 0) setErrors(named);
      else setFailure(t('operatorCreateFailed', { reason: describeError(error) }));
    }
  };

  return (
    <form
      ref={formRef}
      className="card operator-new-company"
      aria-labelledby="operator-new-company-title"
      aria-busy={busy}
      noValidate
      onSubmit={(event) => void submit(event)}
    >
      <h2 id="operator-new-company-title">{t('operatorNewCompanyTitle')}</h2>
      <p className="operator-help">{t('operatorNewCompanyHelp')}</p>
      <div className="operator-fields">
        {FIELDS.map((field) => {
          const id = `operator-${field.name}`;
          const error = errors[field.name];
          const help = field.name === 'adminName' ? `${id}-help` : null;
          const describedBy = [help, error ? `${id}-error` : null].filter(Boolean).join(' ');
          return (
            <div className="operator-field" key={field.name}>
              <label htmlFor={id}>{t(field.label)}</label>
              <input
                id={id}
                name={field.name}
                type={field.type}
                maxLength={field.maxLength}
                required={field.name !== 'adminName'}
                autoComplete="off"
                disabled={busy}
                aria-invalid={error ? true : undefined}
                aria-describedby={describedBy || undefined}
                {...(field.type === 'email' ? { dir: 'ltr' } : {})}
              />
              {help && (
                <p id={help} className="operator-help">
                  {t('operatorAdminNameHelp')}
                </p>
              )}
              {error && (
                <p id={`${id}-error`} className="operator-field-error">
                  {error}
                </p>
              )}
            </div>
          );
        })}
      </div>
      {failure && (
        <p role="alert" tabIndex={-1} ref={failureRef}>
          {failure}
        </p>
      )}
      <div className="actions">
        <button type="submit" disabled={busy}>
          {busy ? t('operatorCreating') : t('operatorCreate')}
        </button>
      </div>
    </form>
  );
}
