import { useId, useState } from 'react';
import { adminRoutes, type Quota, quotaBodySchema } from '@frontdesk/protocol';
import { t } from '../../../i18n/messages.ts';
import { AdminPage } from '../listPage/AdminPage.tsx';
import { formatDateTime } from '../listPage/formatTime.ts';
import { fieldError, useAdminResource, type AdminRequest } from '../listPage/useAdminResource.ts';

const loadQuota = async ({ api, params, token }: AdminRequest) =>
  (await api(adminRoutes.companyQuota, { params, token })).data;

/** This month's calls against the limit: a bar, and the same in words for everyone. */
function Usage({ quota }: { quota: Quota }) {
  const id = useId();
  const limit = quota.monthlyCallQuota;
  const words =
    limit === null
      ? t('quotaUsedUnlimited', { used: String(quota.usedThisMonth) })
      : t('quotaUsed', { used: String(quota.usedThisMonth), limit: String(limit) });
  const reached = limit !== null && quota.usedThisMonth >= limit;
  return (
    <div className="card quota-usage" data-testid="quota-usage">
      <h3 id={`${id}-title`}>{t('quotaUsage')}</h3>
      <p id={`${id}-words`} className="quota-words">
        {words}
      </p>
      {limit !== null && (
        <meter
          aria-labelledby={`${id}-title`}
          aria-describedby={`${id}-words`}
          min={0}
          max={Math.max(limit, 1)}
          low={limit * 0.8}
          high={limit * 0.95}
          optimum={0}
          value={Math.min(quota.usedThisMonth, Math.max(limit, 1))}
        />
      )}
      {reached && <p role="alert">{t('quotaReached')}</p>}
      <p className="help">
        {t('quotaSince', {
          date: formatDateTime(quota.monthStartedAt, quota.timeZone),
          zone: quota.timeZone,
        })}
      </p>
    </div>
  );
}

/** The limit: none, or a number of calls a month. */
function LimitForm(props: {
  quota: Quota;
  busy: boolean;
  onSave: (monthlyCallQuota: number | null) => Promise<string | undefined>;
}) {
  const id = useId();
  const saved = props.quota.monthlyCallQuota;
  const [limited, setLimited] = useState(saved !== null);
  const [amount, setAmount] = useState(saved === null ? '' : String(saved));
  const [error, setError] = useState<string | undefined>();
  const value = limited ? (amount.trim() === '' ? Number.NaN : Number(amount)) : null;
  const changed = value !== saved;

  return (
    <form
      className="admin-form card"
      aria-labelledby={`${id}-title`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (value !== null && !Number.isInteger(value)) {
          setError(t('quotaNeedsNumber'));
          return;
        }
        const parsed = quotaBodySchema.safeParse({ monthlyCallQuota: value });
        if (!parsed.success) {
          setError(parsed.error.issues[0]?.message);
          return;
        }
        setError(undefined);
        void props.onSave(parsed.data.monthlyCallQuota).then(setError);
      }}
    >
      <fieldset className="choices">
        <legend id={`${id}-title`}>{t('quotaLimit')}</legend>
        <label className="choice">
          <input
            type="radio"
            name={`${id}-kind`}
            checked={!limited}
            onChange={() => setLimited(false)}
          />
          {t('quotaUnlimited')}
        </label>
        <label className="choice">
          <input
            type="radio"
            name={`${id}-kind`}
            checked={limited}
            onChange={() => setLimited(true)}
          />
          {t('quotaLimited')}
        </label>
      </fieldset>
      {limited && (
        <div className="field">
          <label htmlFor={`${id}-amount`}>{t('quotaPerMonth')}</label>
          <input
            id={`${id}-amount`}
            className="amount"
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            value={amount}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(event) => setAmount(event.target.value)}
          />
        </div>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
      <div className="actions">
        <button type="submit" disabled={props.busy || !changed}>
          {props.busy ? t('saving') : t('quotaSave')}
        </button>
      </div>
    </form>
  );
}

/** The monthly quota (`/console/admin/quota`): this month's use, and the limit to change. */
export function QuotaPage() {
  const resource = useAdminResource(loadQuota);
  const { write, busy } = resource;

  async function save(monthlyCallQuota: number | null) {
    const result = await write(
      ({ api, params, token }, ifMatch) =>
        api(adminRoutes.saveCompanyQuota, { params, body: { monthlyCallQuota }, token, ifMatch }),
      () =>
        monthlyCallQuota === null
          ? t('quotaSavedUnlimited')
          : t('quotaSavedOutcome', { limit: String(monthlyCallQuota) }),
    );
    return result.ok ? undefined : fieldError(result, 'monthlyCallQuota');
  }

  return (
    <AdminPage
      title={t('group_quota')}
      intro={<p>{t('quotaIntro')}</p>}
      resource={resource}
      testId="quota-page"
    >
      {(quota) => (
        <>
          <Usage quota={quota} />
          {/* A fresh form for each saved limit, so it starts from what is saved. */}
          <LimitForm key={String(quota.monthlyCallQuota)} quota={quota} busy={busy} onSave={save} />
        </>
      )}
    </AdminPage>
  );
}
