import { useCallback, useEffect, useMemo, useState } from 'react';
import { FormProvider, useForm, useWatch, type FieldPath } from 'react-hook-form';
import {
  adminRoutes,
  type CompanyDetails,
  type CompanySchedule,
  isOpenAt,
  nextOpening,
  timetableBodySchema,
  type TimetableData,
} from '@frontdesk/protocol';
import { describeError } from '../../../app/errors.ts';
import { useAppSelector, useAppStore } from '../../../app/hooks.ts';
import { useServices } from '../../../app/servicesContext.ts';
import { intlLocale, t } from '../../../i18n/messages.ts';
import { LoadGate } from '../LoadGate.tsx';
import { PreviewPane } from '../PreviewPane.tsx';
import { refusalOf, SaveSummary, type ChangeLine, type SaveStatus } from '../SaveSummary.tsx';
import { UnsavedChangesGuard } from '../UnsavedChangesGuard.tsx';
import { useCompanyLoader } from '../useCompanyLoader.ts';
import { DateExceptions } from './DateExceptions.tsx';
import { TimeZoneField } from './TimeZoneField.tsx';
import { WeekHours } from './WeekHours.tsx';
import {
  describeScheduleChanges,
  newTimetable,
  publicSchedule,
  readableIssue,
  scheduleResolver,
  toBody,
  toDraft,
  type ScheduleValues,
} from './scheduleDraft.ts';
import './schedule.css';
import { SaveBar } from '../SaveBar.tsx';

type Loaded = { schedule: CompanySchedule; company: CompanyDetails };

/** The minute the summary of "open now" is worked out for; it moves on each minute. */
function useMinute(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * The company's timetable at `/console/admin/schedule` (issue 16): its time zone, the week's
 * openings, holidays and dated exceptions, checked with the API's own schema, saved whole with
 * `If-Match`, or removed (always open); beside it what guests would see now, and the live
 * preview of the closed page wearing the draft.
 */
export function ScheduleEditor() {
  const { api } = useServices();
  const store = useAppStore();
  const loadCompany = useCompanyLoader();
  const companyId = useAppSelector((state) => state.auth.login?.user.companyId);
  const loadSchedule = useCallback(async (): Promise<CompanySchedule> => {
    const { data } = await api(adminRoutes.companySchedule, {
      params: { id: String(companyId) },
      token: store.getState().auth.login?.access_token,
    });
    return data;
  }, [api, companyId, store]);
  const load = useCallback(async (): Promise<Loaded> => {
    const [schedule, company] = await Promise.all([loadSchedule(), loadCompany()]);
    return { schedule, company };
  }, [loadSchedule, loadCompany]);
  return (
    <LoadGate load={load} loading="scheduleLoading" failed="scheduleLoadFailed">
      {(loaded) => (
        <ScheduleForm initial={loaded} loadSchedule={loadSchedule} loadCompany={loadCompany} />
      )}
    </LoadGate>
  );
}

function ScheduleForm(props: {
  initial: Loaded;
  loadSchedule: () => Promise<CompanySchedule>;
  loadCompany: () => Promise<CompanyDetails>;
}) {
  const { api } = useServices();
  const store = useAppStore();
  const now = useMinute();
  const [saved, setSaved] = useState(props.initial.schedule);
  const [company, setCompany] = useState(props.initial.company);
  // Without a timetable the company is always open; the form shows once one is begun.
  const [editing, setEditing] = useState(saved.timetable !== null);
  const [status, setStatus] = useState<SaveStatus<ChangeLine>>({ kind: 'idle' });
  // What the last save replaced, for its Undo.
  const [undoTo, setUndoTo] = useState<TimetableData | null>(null);
  const form = useForm<ScheduleValues, unknown, TimetableData>({
    defaultValues: toDraft(saved.timetable ?? newTimetable()),
    resolver: scheduleResolver,
    mode: 'onTouched',
  });
  const values = useWatch({ control: form.control }) as ScheduleValues;
  const draft = useMemo(() => toBody(values), [values]);
  const valid = useMemo(() => timetableBodySchema.safeParse(draft).success, [draft]);
  // Compared as the form would send it: the API's answer lists an opening's parts in its own order.
  const savedBody = useMemo(
    () => saved.timetable && toBody(toDraft(saved.timetable)),
    [saved.timetable],
  );
  const unsaved = editing && JSON.stringify(draft) !== JSON.stringify(savedBody);

  const options = () => ({
    params: { id: String(company.id) },
    token: store.getState().auth.login?.access_token,
    ifMatch: saved.version,
  });

  /** After a change: the company as guests now get it (the API's own `openNow`). */
  const refreshCompany = () =>
    props.loadCompany().then(setCompany, () => undefined /* the editor's answer stands */);

  function applied(next: CompanySchedule, changes: ChangeLine[], before: TimetableData | null) {
    setSaved(next);
    setEditing(next.timetable !== null);
    form.reset(toDraft(next.timetable ?? newTimetable()));
    setUndoTo(before);
    setStatus({ kind: 'saved', changes });
    void refreshCompany();
  }

  function refused(error: unknown) {
    setStatus(
      refusalOf(error, (field, message) =>
        form.setError(field as FieldPath<ScheduleValues>, {
          type: 'server',
          message: readableIssue(message, form.getValues()),
        }),
      ),
    );
  }

  /** Puts `timetable` in place of the saved one (`null`: removes it, always open). */
  async function replace(timetable: TimetableData | null): Promise<CompanySchedule> {
    const { data } = timetable
      ? await api(adminRoutes.replaceCompanySchedule, { ...options(), body: timetable })
      : await api(adminRoutes.removeCompanySchedule, options());
    return data;
  }

  async function change(timetable: TimetableData | null) {
    const before = saved.timetable;
    setStatus({ kind: 'saving' });
    try {
      const next = await replace(timetable);
      applied(next, describeScheduleChanges(before, next.timetable), before);
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
      const next = await replace(undoTo);
      setSaved(next);
      setEditing(next.timetable !== null);
      form.reset(toDraft(next.timetable ?? newTimetable()));
      setUndoTo(null);
      setStatus({ kind: 'undone' });
      void refreshCompany();
    } catch (error) {
      refused(error);
    }
  }

  /** After a 412: the version saved since, with this draft kept on top to save again. */
  async function reload() {
    try {
      const [fresh] = await Promise.all([props.loadSchedule(), refreshCompany()]);
      setSaved(fresh);
      setStatus({ kind: 'idle' });
    } catch (error) {
      setStatus({
        kind: 'failed',
        message: t('scheduleLoadFailed', { reason: describeError(error) }),
      });
    }
  }

  const previewed = useMemo<CompanyDetails>(() => {
    if (!editing) return { ...company, schedule: null };
    if (!valid) return company;
    return { ...company, schedule: publicSchedule(draft, now) };
  }, [company, draft, editing, now, valid]);

  const busy = status.kind === 'saving' || status.kind === 'undoing';
  return (
    <FormProvider {...form}>
      <div className="settings-layout">
        <form
          className="settings-form schedule-editor"
          noValidate
          aria-busy={busy}
          aria-labelledby="schedule-title"
          onSubmit={(event) => void save(event)}
        >
          <h2 id="schedule-title" className="admin-page-title">
            {t('scheduleTitle')}
          </h2>
          <SaveSummary
            status={status}
            describe={(line) => line}
            onUndo={(changes) => void undo(changes)}
            onReload={() => void reload()}
            onDismiss={() => setStatus({ kind: 'idle' })}
          />
          <OpeningSummary
            editing={editing}
            valid={valid}
            unsaved={unsaved}
            draft={draft}
            company={company}
            now={now}
          />
          {editing ? (
            <>
              <section className="settings-group" aria-labelledby="schedule-zone-title">
                <h2 id="schedule-zone-title">{t('scheduleClock')}</h2>
                <TimeZoneField />
                {saved.timetable && (
                  <div className="schedule-always-open">
                    <p className="help">{t('scheduleRemoveHelp')}</p>
                    <button
                      type="button"
                      className="secondary"
                      disabled={busy}
                      onClick={() => void change(null)}
                    >
                      {t('scheduleMakeAlwaysOpen')}
                    </button>
                  </div>
                )}
              </section>
              <WeekHours />
              <DateExceptions />
            </>
          ) : (
            <section className="settings-group" aria-labelledby="schedule-none-title">
              <h2 id="schedule-none-title">{t('scheduleAlwaysOpen')}</h2>
              <p>{t('scheduleNoneText')}</p>
              <div>
                <button
                  type="button"
                  onClick={() => {
                    form.reset(toDraft(newTimetable()));
                    setEditing(true);
                  }}
                >
                  {t('scheduleSetHours')}
                </button>
              </div>
            </section>
          )}
          <SaveBar
            unsaved={unsaved ? t('scheduleUnsaved') : null}
            busy={busy}
            saving={status.kind === 'saving'}
            onDiscard={() => {
              form.reset(toDraft(saved.timetable ?? newTimetable()));
              setEditing(saved.timetable !== null);
              setStatus({ kind: 'idle' });
            }}
          />
        </form>
        <PreviewPane company={previewed} stage="schedule" />
      </div>
      <UnsavedChangesGuard unsaved={unsaved} />
    </FormProvider>
  );
}

/**
 * What a guest would see at this minute: open or closed, and when it opens next, worked out by
 * the same functions as the guest page and the API (`@frontdesk/protocol` timetable.ts); once
 * saved, "open now" is the API's own answer (`GET /company/:id`).
 */
function OpeningSummary(props: {
  editing: boolean;
  valid: boolean;
  unsaved: boolean;
  draft: TimetableData;
  company: CompanyDetails;
  now: Date;
}) {
  const { draft, now } = props;
  let lines: string[];
  if (!props.editing) lines = [t('scheduleNowAlwaysOpen')];
  else if (!props.valid) lines = [t('scheduleNowInvalid')];
  else {
    const serverSays = !props.unsaved ? props.company.schedule?.openNow : undefined;
    const open = serverSays ?? isOpenAt(draft, now);
    const next = open ? null : nextOpening(draft, now);
    const when = next
      ? new Intl.DateTimeFormat(intlLocale(), {
          timeZone: draft.timeZone,
          weekday: 'long',
          day: 'numeric',
          month: 'long',
          hour: '2-digit',
          minute: '2-digit',
        }).format(next)
      : null;
    lines = [
      props.unsaved
        ? open
          ? t('scheduleDraftOpen')
          : t('scheduleDraftClosed')
        : open
          ? t('scheduleSavedOpen')
          : t('scheduleSavedClosed'),
    ];
    if (!open) {
      lines.push(
        when ? t('scheduleNextOpening', { when, zone: draft.timeZone }) : t('scheduleNeverOpens'),
      );
    }
  }
  return (
    <section
      className="opening-summary"
      aria-labelledby="schedule-now-title"
      data-testid="opening-summary"
    >
      <h2 id="schedule-now-title">{t('scheduleGuestsSee')}</h2>
      <div role="status">
        {lines.map((line) => (
          <p key={line}>{line}</p>
        ))}
      </div>
    </section>
  );
}
