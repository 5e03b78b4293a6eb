import { useState } from 'react';
import { adminRoutes, type AuditEntry } from '@frontdesk/protocol';
import { describeError } from '../../../app/errors.ts';
import { hasMessage, t } from '../../../i18n/messages.ts';
import { EmptyState } from '../../../ui/ListState.tsx';
import { formatValue } from '../SaveSummary.tsx';
import type { SettingsField } from '../settingsGroups.ts';
import { AdminPage } from '../listPage/AdminPage.tsx';
import { formatDateTime, useCompanyTimeZone } from '../listPage/formatTime.ts';
import { useAdminResource, type AdminRequest } from '../listPage/useAdminResource.ts';

type AuditPage = { entries: AuditEntry[]; nextBefore: number | null };

/** The names of the company's members and categories by id, for the ids entries keep. */
type Names = { staff: Map<number, string>; categories: Map<number, string> };
type History = AuditPage & { names: Names };

/** The first page, with the names of the members and categories the entries name by id. */
const loadHistory = async ({ api, params, token }: AdminRequest): Promise<History> => {
  const [audit, staff, categories] = await Promise.all([
    api(adminRoutes.companyAudit, { params, token }),
    api(adminRoutes.companyStaff, { params, token }),
    api(adminRoutes.companyCategories, { params, token }),
  ]);
  const names: Names = {
    staff: new Map(staff.data.map((member) => [member.id, member.name])),
    categories: new Map(categories.data.map((category) => [category.id, category.name])),
  };
  return { ...audit.data, names };
};

/** The fields whose values are ids of members or of categories. */
const ID_LISTS: Partial<Record<string, keyof Names>> = {
  agentIds: 'staff',
  categoryIds: 'categories',
  order: 'categories',
};

/** A target such as `staff 4` or `category 10` by its name (`Cy Agent (staff 4)`), when known. */
function targetName(target: string, names: Names): string {
  const [kind, id] = target.split(' ');
  const known =
    kind === 'staff'
      ? names.staff.get(Number(id))
      : kind === 'category'
        ? names.categories.get(Number(id))
        : undefined;
  return known ? `${known} (${target})` : target;
}

/** A changed field's name in words: the audit's own, a setting's, or the API's. */
function fieldLabel(key: string): string {
  const own = `auditField_${key}`;
  if (hasMessage(own)) return t(own);
  const setting = `field_${key}`;
  return hasMessage(setting) ? t(setting) : key;
}

const SHOWN_JSON = 80;

/** A value as it was or became: a setting's option or on/off, names for ids, or its start. */
function auditValue(key: string, value: unknown, names: Names): string {
  if (value === null || value === undefined) return t('auditNone');
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item !== 'object')) {
    const list = ID_LISTS[key];
    const shown = list
      ? value.map((id) => names[list].get(Number(id)) ?? String(id))
      : value.map(String);
    return shown.length > 0 ? shown.join(', ') : t('auditNone');
  }
  if (typeof value === 'object') {
    const json = JSON.stringify(value);
    return json.length > SHOWN_JSON ? `${json.slice(0, SHOWN_JSON)}…` : json;
  }
  // An option's name (`option_<field>_<value>`), on/off, or the quoted start of a text.
  return formatValue(key as SettingsField, value);
}

/** The fields an entry touched, each as it was and became (a creation has no before). */
function changes(entry: AuditEntry): { key: string; before: unknown; after: unknown }[] {
  const record = (value: unknown): Record<string, unknown> =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  const before = record(entry.before);
  const after = record(entry.after);
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys.map((key) => ({ key, before: before[key], after: after[key] }));
}

function Entry(props: { entry: AuditEntry; names: Names; timeZone: string }) {
  const { entry, names } = props;
  const action = `audit_${entry.action}`;
  // The company itself needs no naming on its own page.
  const target = entry.target.startsWith('company ') ? null : targetName(entry.target, names);
  return (
    <li className="audit-entry" data-testid="audit-entry">
      <p className="audit-meta">
        <time dateTime={entry.at} dir="auto">
          {formatDateTime(entry.at, props.timeZone)}
        </time>
        <span className="audit-actor">{entry.actor}</span>
      </p>
      <p className="audit-action">
        <strong>{hasMessage(action) ? t(action) : entry.action}</strong>{' '}
        {target && <span className="help">{target}</span>}
      </p>
      {changes(entry).length > 0 && (
        <ul className="audit-changes" aria-label={t('auditChanges')}>
          {changes(entry).map((change) => (
            <li key={change.key}>
              <span className="audit-field">{fieldLabel(change.key)}</span>{' '}
              <span dir="auto">
                {t('changeArrow', {
                  before: auditValue(change.key, change.before, names),
                  after: auditValue(change.key, change.after, names),
                })}
              </span>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

/**
 * The change history (`/console/admin/audit`): who changed what and when, newest first, each
 * field before → after, older pages on request. Times in the company's zone (named).
 */
export function AuditPage() {
  const resource = useAdminResource(loadHistory);
  const timeZone = useCompanyTimeZone();
  // Older pages, fetched on request after the first (which the resource holds).
  const [older, setOlder] = useState<AuditPage | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreError, setMoreError] = useState<string | null>(null);

  async function loadMore(before: number) {
    setLoadingMore(true);
    setMoreError(null);
    try {
      const { api, params, token } = resource.request();
      const { data } = await api(adminRoutes.companyAudit, {
        params,
        query: { before: String(before) },
        token,
      });
      setOlder((current) => ({
        entries: [...(current?.entries ?? []), ...data.entries],
        nextBefore: data.nextBefore,
      }));
    } catch (error) {
      setMoreError(t('listLoadFailed', { reason: describeError(error) }));
    } finally {
      setLoadingMore(false);
    }
  }

  return (
    <AdminPage
      title={t('group_audit')}
      intro={<p>{t('auditIntro', { zone: timeZone })}</p>}
      resource={resource}
      testId="audit-page"
    >
      {(first) => {
        const entries = [...first.entries, ...(older?.entries ?? [])];
        const nextBefore = older ? older.nextBefore : first.nextBefore;
        return (
          <>
            {entries.length === 0 ? (
              <EmptyState title={t('auditEmpty')} hint={t('auditEmptyHint')} />
            ) : (
              <ol className="audit-list">
                {entries.map((entry) => (
                  <Entry key={entry.id} entry={entry} names={first.names} timeZone={timeZone} />
                ))}
              </ol>
            )}
            <div className="audit-more" aria-live="polite">
              <p className="help">{t('auditShownCount', { count: String(entries.length) })}</p>
              {moreError && <p role="alert">{moreError}</p>}
              {nextBefore !== null ? (
                <button
                  type="button"
                  className="secondary"
                  disabled={loadingMore}
                  onClick={() => void loadMore(nextBefore)}
                >
                  {loadingMore ? t('auditLoadingMore') : t('auditMore')}
                </button>
              ) : (
                entries.length > 0 && <p className="help">{t('auditEnd')}</p>
              )}
            </div>
          </>
        );
      }}
    </AdminPage>
  );
}
