import { useId, useRef, useState, type FormEvent } from 'react';
import {
  adminRoutes,
  guestExportRoute,
  guestSearchQuerySchema,
  type GuestErasure,
  type GuestFound,
  type GuestSearchQuery,
} from '@frontdesk/protocol';
import { describeError } from '../../../app/errors.ts';
import { useAppSelector, useAppStore } from '../../../app/hooks.ts';
import { saveFile } from '../../../app/saveFile.ts';
import { useServices } from '../../../app/servicesContext.ts';
import { t } from '../../../i18n/messages.ts';
import { Dialog } from '../../../ui/Dialog.tsx';
import { ListField } from '../listPage/ListField.tsx';
import { formatDateTime, useCompanyTimeZone } from '../listPage/formatTime.ts';
import '../listPage/lists.css';
import './guests.css';

type Way = 'callId' | 'dates' | 'answer';
type Search =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'failed'; message: string }
  | { state: 'done'; guests: GuestFound[] };

/** The admin's requests: the client, the company's id and the admin's token as they are now. */
function useRequest() {
  const services = useServices();
  const store = useAppStore();
  const companyId = useAppSelector((state) => state.auth.login?.user.companyId);
  return () => ({
    ...services,
    id: String(companyId ?? ''),
    token: store.getState().auth.login?.access_token,
  });
}

/** A date field's day as the instant it begins, in the browser's zone. */
const dayStart = (day: string, plusDays = 0) => {
  const date = new Date(`${day}T00:00:00`);
  date.setDate(date.getDate() + plusDays);
  return date.toISOString();
};

function SearchForm(props: { busy: boolean; onSearch: (query: GuestSearchQuery) => void }) {
  const id = useId();
  const [way, setWay] = useState<Way>('answer');
  const [text, setText] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    const query =
      way === 'dates'
        ? { from: from && dayStart(from), to: to && dayStart(to, 1) }
        : { [way]: text.trim() };
    const parsed = guestSearchQuerySchema.safeParse(query);
    if (!parsed.success) {
      setErrors(
        Object.fromEntries(
          parsed.error.issues.map((issue) => [
            way === 'dates' ? String(issue.path[0] ?? 'to') : way,
            issue.message,
          ]),
        ),
      );
      return;
    }
    setErrors({});
    props.onSearch(parsed.data);
  }

  const ways: Way[] = ['answer', 'callId', 'dates'];
  return (
    <form className="admin-form card" aria-labelledby={`${id}-title`} noValidate onSubmit={submit}>
      <h3 id={`${id}-title`}>{t('guestSearchTitle')}</h3>
      <fieldset className="guest-search-ways">
        <legend>{t('guestSearchBy')}</legend>
        {ways.map((option) => (
          <label key={option}>
            <input
              type="radio"
              name={`${id}-way`}
              value={option}
              checked={way === option}
              onChange={() => {
                setWay(option);
                setErrors({});
              }}
            />
            {t(`guestSearchWay_${option}`)}
          </label>
        ))}
      </fieldset>
      <div className="form-row">
        {way === 'dates' ? (
          <>
            <ListField label={t('guestSearchFrom')} error={errors.from}>
              {(control) => (
                <input
                  {...control}
                  type="date"
                  value={from}
                  onChange={(event) => setFrom(event.target.value)}
                />
              )}
            </ListField>
            <ListField label={t('guestSearchTo')} error={errors.to}>
              {(control) => (
                <input
                  {...control}
                  type="date"
                  value={to}
                  onChange={(event) => setTo(event.target.value)}
                />
              )}
            </ListField>
          </>
        ) : (
          <ListField
            label={t(`guestSearchField_${way}`)}
            help={t(`guestSearchHelp_${way}`)}
            error={errors[way]}
          >
            {(control) => (
              <input
                {...control}
                type="search"
                dir={way === 'callId' ? 'ltr' : undefined}
                spellCheck={false}
                autoComplete="off"
                value={text}
                onChange={(event) => setText(event.target.value)}
              />
            )}
          </ListField>
        )}
      </div>
      <div className="actions">
        <button type="submit" disabled={props.busy}>
          {props.busy && <span className="spinner" aria-hidden="true" />}
          {props.busy ? t('guestSearching') : t('guestSearchSubmit')}
        </button>
      </div>
    </form>
  );
}

/** What the erasure will remove, named before the admin confirms it by typing a word. */
function EraseDialog(props: {
  guest: GuestFound;
  onCancel: () => void;
  onErased: (erased: GuestErasure) => void;
}) {
  const request = useRequest();
  const input = useRef<HTMLInputElement>(null);
  const [typed, setTyped] = useState('');
  const [state, setState] = useState<{ busy: boolean; error?: string }>({ busy: false });
  const word = t('guestEraseWord');

  async function erase() {
    setState({ busy: true });
    const { api, id, token } = request();
    try {
      const { data } = await api(adminRoutes.eraseGuest, {
        params: { id, guestId: String(props.guest.id) },
        token,
      });
      props.onErased(data);
    } catch (error) {
      setState({ busy: false, error: describeError(error) });
    }
  }

  return (
    <Dialog
      role="alertdialog"
      title={t('guestEraseTitle', { name: props.guest.username })}
      onCancel={props.onCancel}
      initialFocus={input}
      testId="guest-erase-dialog"
      description={
        <>
          <p>{t('guestEraseWhat')}</p>
          <ul>
            <li>{t('guestEraseAnswers')}</li>
            <li>{t('guestEraseFiles')}</li>
            <li>{t('guestEraseRecordings')}</li>
            <li>{t('guestEraseCalls', { count: String(props.guest.calls.length) })}</li>
            <li>{t('guestEraseChat')}</li>
          </ul>
          <p>{t('guestEraseKept')}</p>
        </>
      }
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (typed.trim() === word) void erase();
        }}
      >
        <ListField
          label={t('guestEraseConfirm', { word })}
          error={state.error && t('guestEraseFailed', { reason: state.error })}
        >
          {(control) => (
            <input
              {...control}
              ref={input}
              type="text"
              autoComplete="off"
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
            />
          )}
        </ListField>
        <div className="actions">
          <button type="button" className="secondary" onClick={props.onCancel}>
            {t('cancel')}
          </button>
          <button type="submit" className="danger" disabled={typed.trim() !== word || state.busy}>
            {state.busy && <span className="spinner" aria-hidden="true" />}
            {state.busy ? t('guestErasing') : t('guestEraseSubmit')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** Downloads the guest's archive, saying how much has come meanwhile. */
function ExportButton(props: { guest: GuestFound }) {
  const request = useRequest();
  const [download, setDownload] = useState<
    { kind: 'idle' } | { kind: 'loading'; loaded: number } | { kind: 'failed'; message: string }
  >({ kind: 'idle' });
  const statusId = useId();

  async function start() {
    setDownload({ kind: 'loading', loaded: 0 });
    const { downloadFile, id, token } = request();
    try {
      const file = await downloadFile(guestExportRoute, {
        params: { id, guestId: String(props.guest.id) },
        ...(token ? { token } : {}),
        onProgress: ({ loaded }) => setDownload({ kind: 'loading', loaded }),
      });
      saveFile(file, `guest-${props.guest.id}.zip`);
      setDownload({ kind: 'idle' });
    } catch (error) {
      setDownload({ kind: 'failed', message: describeError(error) });
    }
  }

  const loading = download.kind === 'loading';
  return (
    <>
      <button
        type="button"
        className="secondary"
        disabled={loading}
        aria-describedby={statusId}
        aria-label={t('guestExportLabel', { name: props.guest.username })}
        onClick={() => void start()}
      >
        {loading && <span className="spinner" aria-hidden="true" />}
        {loading ? t('guestExporting') : t('guestExport')}
      </button>
      <span id={statusId} aria-live="polite" className="help guest-export-status">
        {download.kind === 'loading' &&
          download.loaded > 0 &&
          t('guestExportReceived', { size: `${Math.ceil(download.loaded / 1024)} KB` })}
      </span>
      {download.kind === 'failed' && (
        <p role="alert" className="field-error">
          {t('guestExportFailed', { reason: download.message })}
        </p>
      )}
    </>
  );
}

/** The guest's latest welcome answers, as the admin recognises the person by them. */
const answersLine = (guest: GuestFound) =>
  guest.latestAnswers
    ? Object.values(guest.latestAnswers)
        .filter((value) => typeof value === 'string' && value !== '')
        .join(' · ')
    : t('guestDataNoAnswers');

/**
 * A guest's rights (`/console/admin/guests`, decision 0032): find a guest by one of its calls,
 * the dates of its calls or a welcome answer; download everything held about it; erase it.
 */
export function GuestDataPage() {
  const id = useId();
  const request = useRequest();
  const timeZone = useCompanyTimeZone();
  const [search, setSearch] = useState<Search>({ state: 'idle' });
  const [erasing, setErasing] = useState<GuestFound | null>(null);
  const [outcome, setOutcome] = useState('');

  async function find(query: GuestSearchQuery) {
    setSearch({ state: 'loading' });
    setOutcome('');
    const { api, id: companyId, token } = request();
    try {
      const { data } = await api(adminRoutes.findGuests, {
        params: { id: companyId },
        query,
        token,
      });
      setSearch({ state: 'done', guests: data });
    } catch (error) {
      setSearch({ state: 'failed', message: describeError(error) });
    }
  }

  return (
    <section className="admin-page" aria-labelledby={`${id}-title`} data-testid="guests-page">
      <header className="admin-page-header">
        <h2 id={`${id}-title`}>{t('group_guests')}</h2>
        <div className="help">
          <p>{t('guestDataIntro')}</p>
        </div>
      </header>
      <div aria-live="polite" className="outcome-live">
        {outcome && (
          <p className="saved" data-testid="outcome">
            {outcome}
          </p>
        )}
      </div>
      <SearchForm busy={search.state === 'loading'} onSearch={(query) => void find(query)} />
      {search.state === 'failed' && (
        <p role="alert" className="field-error">
          {t('guestSearchFailed', { reason: search.message })}
        </p>
      )}
      {search.state === 'done' &&
        (search.guests.length === 0 ? (
          <p className="guest-none" data-testid="guests-empty">
            {t('guestSearchNone')}
          </p>
        ) : (
          <ul className="guest-results" aria-label={t('guestResults')}>
            {search.guests.map((guest) => (
              <li key={guest.id} className="card guest-result" data-testid="guest-row">
                <div className="guest-result-who">
                  <p className="guest-result-answers">{answersLine(guest)}</p>
                  <p className="help">
                    <code dir="ltr">{guest.username}</code>
                    {' · '}
                    {t('guestRegistered', { date: formatDateTime(guest.registeredAt, timeZone) })}
                  </p>
                  <p className="help">
                    {guest.calls.length === 0
                      ? t('guestNoCalls')
                      : t('guestCalls', {
                          count: String(guest.calls.length),
                          date: formatDateTime(guest.calls[0]?.startedAt ?? '', timeZone),
                        })}
                  </p>
                </div>
                <div className="row-actions guest-result-actions">
                  <ExportButton guest={guest} />
                  <button
                    type="button"
                    className="danger"
                    aria-label={t('guestEraseLabel', { name: guest.username })}
                    onClick={() => setErasing(guest)}
                  >
                    {t('guestErase')}
                  </button>
                </div>
              </li>
            ))}
          </ul>
        ))}
      {erasing && (
        <EraseDialog
          guest={erasing}
          onCancel={() => setErasing(null)}
          onErased={(erased) => {
            setErasing(null);
            setOutcome(
              t('guestErased', {
                calls: String(erased.calls),
                answers: String(erased.answers),
                files: String(erased.files),
                recordings: String(erased.recordings),
              }),
            );
            setSearch((current) =>
              current.state === 'done'
                ? { ...current, guests: current.guests.filter((g) => g.id !== erasing.id) }
                : current,
            );
          }}
        />
      )}
    </section>
  );
}
