import { useId, useState } from 'react';
import {
  adminRoutes,
  COMPANY_RETENTION_KINDS,
  RETENTION_DAYS_MAX,
  retentionPeriodsBodySchema,
  type CompanyRetentionKind,
  type RetentionPeriods,
  type RetentionRun,
  type RetentionSettings,
} from '@frontdesk/protocol';
import { t } from '../../../i18n/messages.ts';
import { AdminPage } from '../listPage/AdminPage.tsx';
import { formatDateTime, useCompanyTimeZone } from '../listPage/formatTime.ts';
import { fieldError, useAdminResource, type AdminRequest } from '../listPage/useAdminResource.ts';
import './privacy.css';

type Privacy = { settings: RetentionSettings; runs: RetentionRun[] };

const loadPrivacy = async ({ api, params, token }: AdminRequest): Promise<Privacy> => {
  const [settings, runs] = await Promise.all([
    api(adminRoutes.retention, { params, token }),
    api(adminRoutes.retentionRuns, { params, token }),
  ]);
  return { settings: settings.data, runs: runs.data };
};

type Drafts = Record<CompanyRetentionKind, string>;
const draftsOf = (periods: RetentionPeriods): Drafts =>
  Object.fromEntries(
    COMPANY_RETENTION_KINDS.map((kind) => [kind, String(periods[kind])]),
  ) as Drafts;

/** Each kind's period in days, with what it covers and its default. */
function PeriodsForm(props: {
  settings: RetentionSettings;
  busy: boolean;
  onSave: (periods: RetentionPeriods) => Promise<Partial<Drafts> | undefined>;
}) {
  const id = useId();
  const { periods, defaults } = props.settings;
  const [drafts, setDrafts] = useState(() => draftsOf(periods));
  const [errors, setErrors] = useState<Partial<Drafts>>({});
  const changed = COMPANY_RETENTION_KINDS.some((kind) => drafts[kind] !== String(periods[kind]));

  return (
    <form
      className="admin-form card retention-form"
      aria-labelledby={`${id}-title`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const body = Object.fromEntries(
          COMPANY_RETENTION_KINDS.map((kind) => [
            kind,
            drafts[kind].trim() === '' ? Number.NaN : Number(drafts[kind]),
          ]),
        );
        const parsed = retentionPeriodsBodySchema.safeParse(body);
        if (!parsed.success) {
          setErrors(
            Object.fromEntries(
              parsed.error.issues.map((issue) => [issue.path[0], t('retentionNeedsDays')]),
            ),
          );
          return;
        }
        setErrors({});
        void props
          .onSave({ ...periods, ...parsed.data })
          .then((refused) => setErrors(refused ?? {}));
      }}
    >
      <h3 id={`${id}-title`}>{t('retentionPeriods')}</h3>
      {COMPANY_RETENTION_KINDS.map((kind) => {
        const error = errors[kind];
        return (
          <div className="field retention-kind" key={kind} data-testid={`retention-${kind}`}>
            <label htmlFor={`${id}-${kind}`}>{t(`retention_${kind}`)}</label>
            <p className="help" id={`${id}-${kind}-help`}>
              {t(`retentionMeaning_${kind}`)}{' '}
              {t('retentionDefault', { days: String(defaults[kind]) })}
            </p>
            <div className="retention-days">
              <input
                id={`${id}-${kind}`}
                className="amount"
                type="number"
                inputMode="numeric"
                min={1}
                max={RETENTION_DAYS_MAX}
                step={1}
                value={drafts[kind]}
                aria-invalid={error ? true : undefined}
                aria-describedby={`${id}-${kind}-help${error ? ` ${id}-${kind}-error` : ''}`}
                onChange={(event) => setDrafts({ ...drafts, [kind]: event.target.value })}
              />
              <span aria-hidden="true">{t('retentionDaysUnit')}</span>
            </div>
            {error && (
              <p id={`${id}-${kind}-error`} className="field-error">
                {error}
              </p>
            )}
          </div>
        );
      })}
      <div className="actions">
        <button type="submit" disabled={props.busy || !changed}>
          {props.busy ? t('saving') : t('retentionSave')}
        </button>
      </div>
    </form>
  );
}

/** What the last nightly runs deleted: one card per run, counts only. */
function Runs({ runs }: { runs: RetentionRun[] }) {
  const id = useId();
  const timeZone = useCompanyTimeZone();
  return (
    <section className="card retention-runs" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('retentionRuns')}</h3>
      {runs.length === 0 ? (
        <p className="report-empty" data-testid="retention-runs-empty">
          {t('retentionRunsEmpty')}
        </p>
      ) : (
        <ol className="retention-run-list">
          {runs.map((run) => (
            <li key={run.runAt} data-testid="retention-run">
              <h4>{formatDateTime(run.runAt, timeZone)}</h4>
              <dl>
                {COMPANY_RETENTION_KINDS.map((kind) => (
                  <div key={kind}>
                    <dt>{t(`retention_${kind}`)}</dt>
                    <dd>{t('retentionDeleted', { count: String(run.deleted[kind]) })}</dd>
                  </div>
                ))}
              </dl>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/**
 * Privacy & retention (`/console/admin/privacy`, decision 0031): how long each kind of personal
 * data is kept, and what the nightly runs deleted.
 */
export function PrivacyPage() {
  const resource = useAdminResource(loadPrivacy);
  const { write, busy } = resource;

  async function save(periods: RetentionPeriods) {
    const result = await write(
      ({ api, params, token }, ifMatch) =>
        api(adminRoutes.updateRetention, { params, body: periods, token, ifMatch }),
      () => t('retentionSaved'),
    );
    if (result.ok) return undefined;
    return Object.fromEntries(
      COMPANY_RETENTION_KINDS.flatMap((kind) => {
        const message = fieldError(result, kind);
        return message ? [[kind, message]] : [];
      }),
    );
  }

  return (
    <AdminPage
      title={t('group_privacy')}
      intro={
        <>
          <p>{t('privacyIntro')}</p>
          <p>{t('retentionChatNotKept')}</p>
          <p>{t('retentionInstance')}</p>
        </>
      }
      resource={resource}
      testId="privacy-page"
    >
      {({ settings, runs }) => (
        <>
          {/* A fresh form for each saved set, so it starts from what is saved. */}
          <PeriodsForm
            key={JSON.stringify(settings.periods)}
            settings={settings}
            busy={busy}
            onSave={save}
          />
          <Runs runs={runs} />
        </>
      )}
    </AdminPage>
  );
}
