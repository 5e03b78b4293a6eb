import { useState } from 'react';
import { adminRoutes, outcomeCodesBodySchema, type OutcomeCode } from '@frontdesk/protocol';
import { t } from '../../../i18n/messages.ts';
import { EmptyState } from '../../../ui/ListState.tsx';
import { AdminPage } from '../listPage/AdminPage.tsx';
import { useAdminResource, type AdminRequest } from '../listPage/useAdminResource.ts';

const loadCodes = async ({ api, params, token }: AdminRequest): Promise<OutcomeCode[]> =>
  (await api(adminRoutes.outcomeCodes, { params, token })).data;

/** The list being edited, and what the schema said of each row's fields. */
function CodesEditor(props: {
  codes: OutcomeCode[];
  busy: boolean;
  onSave: (codes: OutcomeCode[]) => Promise<unknown>;
}) {
  const [rows, setRows] = useState<OutcomeCode[]>(props.codes);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const edit = (index: number, change: Partial<OutcomeCode>) =>
    setRows((now) => now.map((row, i) => (i === index ? { ...row, ...change } : row)));

  function save() {
    const parsed = outcomeCodesBodySchema.safeParse({ codes: rows });
    if (!parsed.success) {
      setErrors(
        Object.fromEntries(
          parsed.error.issues.map((issue) => [
            issue.path.slice(1).join('.') || 'codes',
            issue.message,
          ]),
        ),
      );
      return;
    }
    setErrors({});
    void props.onSave(parsed.data.codes);
  }

  return (
    <form
      className="outcome-codes"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      {rows.length === 0 && <EmptyState title={t('noOutcomesYet')} hint={t('outcomesEmptyHint')} />}
      <ol className="outcome-rows">
        {rows.map((row, index) => {
          const number = index + 1;
          return (
            // The row's place is its identity: a code being typed changes with each key.
            <li key={index} data-testid="outcome-row">
              <fieldset>
                <legend>{t('outcomeRow', { number })}</legend>
                <label>
                  {t('outcomeLabel')}
                  <input
                    type="text"
                    value={row.label}
                    maxLength={60}
                    aria-invalid={errors[`${index}.label`] ? true : undefined}
                    onChange={(event) => edit(index, { label: event.target.value })}
                  />
                  {errors[`${index}.label`] && <span role="alert">{errors[`${index}.label`]}</span>}
                </label>
                <label>
                  {t('outcomeCode')}
                  <input
                    type="text"
                    dir="ltr"
                    autoCapitalize="none"
                    spellCheck={false}
                    value={row.code}
                    aria-invalid={errors[`${index}.code`] ? true : undefined}
                    onChange={(event) => edit(index, { code: event.target.value })}
                  />
                  <span className="help">{t('outcomeCodeHelp')}</span>
                  {errors[`${index}.code`] && <span role="alert">{errors[`${index}.code`]}</span>}
                </label>
                <button
                  type="button"
                  className="secondary"
                  aria-label={t('removeOutcome', { number })}
                  onClick={() => setRows((now) => now.filter((_, i) => i !== index))}
                >
                  {t('remove')}
                </button>
              </fieldset>
            </li>
          );
        })}
      </ol>
      {errors.codes && <p role="alert">{errors.codes}</p>}
      <div className="actions">
        <button
          type="button"
          className="secondary"
          onClick={() => setRows((now) => [...now, { code: '', label: '' }])}
        >
          {t('addOutcome')}
        </button>
        <button type="submit" disabled={props.busy}>
          {t('saveOutcomes')}
        </button>
      </div>
    </form>
  );
}

/**
 * The company's call outcomes (`/console/admin/outcomes`, issue 19 item 3): what its agents
 * choose from when they wrap up a call, in order; edited as one list and saved at once.
 */
export function OutcomeCodesPage() {
  const resource = useAdminResource(loadCodes);
  const { write, busy } = resource;
  const save = (codes: OutcomeCode[]) =>
    write(
      ({ api, params, token }, ifMatch) =>
        api(adminRoutes.setOutcomeCodes, { params, body: { codes }, token, ifMatch }),
      ({ data }) => t('outcomesSaved', { count: data.length }),
    );
  return (
    <AdminPage
      title={t('group_outcomes')}
      intro={<p>{t('outcomesIntro')}</p>}
      resource={resource}
      testId="outcome-codes-page"
    >
      {(codes) => (
        <CodesEditor key={JSON.stringify(codes)} codes={codes} busy={busy} onSave={save} />
      )}
    </AdminPage>
  );
}
