import { useEffect, useId, useState } from 'react';
import { adminRoutes, allowedOriginsSchema, ApiRequestError } from '@frontdesk/protocol';
import { describeError } from '../../app/errors.ts';
import { useAppStore } from '../../app/hooks.ts';
import { useServices } from '../../app/servicesContext.ts';
import { t } from '../../i18n/messages.ts';

type State =
  | { kind: 'loading' }
  | { kind: 'ready'; saved: string[] }
  | { kind: 'saving'; saved: string[] }
  | { kind: 'failed'; saved: string[] | null; message: string };

/** One origin a line, blank lines left out. */
const linesOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

/**
 * The sites that may show the guest page in a frame (`allowedOrigins`, CSP frame-ancestors):
 * their own route (`PUT /company/:id/allowed-origins`), saved on their own. A save changes the
 * company's version, so the settings form reloads it (keeping its draft) through `onSaved`.
 */
export function AllowedOriginsEditor(props: {
  companyId: number;
  version: number;
  onSaved: () => void;
}) {
  const { api } = useServices();
  const store = useAppStore();
  const id = useId();
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [savedNote, setSavedNote] = useState(false);
  const token = () => store.getState().auth.login?.access_token;
  const params = { id: String(props.companyId) };

  useEffect(() => {
    let current = true;
    const login = store.getState().auth.login;
    const request = { params: { id: String(props.companyId) }, token: login?.access_token };
    api(adminRoutes.companyAllowedOrigins, request).then(
      ({ data }) => {
        if (!current) return;
        setState({ kind: 'ready', saved: data.allowedOrigins });
        setText(data.allowedOrigins.join('\n'));
      },
      (error: unknown) =>
        current && setState({ kind: 'failed', saved: null, message: describeError(error) }),
    );
    return () => {
      current = false;
    };
  }, [api, store, props.companyId]);

  const saved = state.kind === 'loading' ? null : state.saved;
  const origins = linesOf(text);
  const changed = saved !== null && origins.join('\n') !== saved.join('\n');

  async function save() {
    const parsed = allowedOriginsSchema.safeParse({ allowedOrigins: origins });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const line = issue?.path[1];
      setProblem(
        typeof line === 'number'
          ? t('originLineProblem', { line: String(line + 1), problem: issue?.message ?? '' })
          : (issue?.message ?? t('saveInvalid')),
      );
      return;
    }
    setProblem(null);
    setState({ kind: 'saving', saved: saved ?? [] });
    try {
      const { data } = await api(adminRoutes.saveCompanyAllowedOrigins, {
        params,
        body: parsed.data,
        token: token(),
        ifMatch: props.version,
      });
      setState({ kind: 'ready', saved: data.allowedOrigins });
      setText(data.allowedOrigins.join('\n'));
      setSavedNote(true);
      props.onSaved();
    } catch (error) {
      const stale = error instanceof ApiRequestError && error.status === 412;
      setState({
        kind: 'failed',
        saved: saved ?? [],
        message: stale ? t('staleVersion') : t('saveFailed', { reason: describeError(error) }),
      });
    }
  }

  if (state.kind === 'loading') return <p role="status">{t('loading')}</p>;
  const error = problem ?? (state.kind === 'failed' ? state.message : null);
  return (
    <div className="field" data-field="allowedOrigins">
      <label htmlFor={`${id}-origins`}>{t('field_allowedOrigins')}</label>
      <textarea
        id={`${id}-origins`}
        rows={3}
        spellCheck={false}
        placeholder="https://shop.example"
        value={text}
        disabled={saved === null}
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${id}-help${error ? ` ${id}-error` : ''}`}
        onChange={(event) => {
          setText(event.target.value);
          setSavedNote(false);
        }}
      />
      <p id={`${id}-help`} className="help">
        {t('help_allowedOrigins')}
      </p>
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
      {savedNote && <p role="status">{t('originsSaved')}</p>}
      <div className="actions">
        <button
          type="button"
          className="secondary"
          disabled={!changed || state.kind === 'saving'}
          onClick={() => void save()}
        >
          {state.kind === 'saving' ? t('saving') : t('saveOrigins')}
        </button>
      </div>
    </div>
  );
}
