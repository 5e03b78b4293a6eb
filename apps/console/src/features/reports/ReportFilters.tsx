import { useId, useState, type ReactNode } from 'react';
import { adminRoutes, type CallOutcome, callOutcomeSchema } from '@frontdesk/protocol';
import { useAppSelector } from '../../app/hooks.ts';
import { t, type MessageKey } from '../../i18n/messages.ts';
import { formatDay, hourSpan, weekdayName } from './format.ts';
import {
  FLAG_FILTERS,
  RANGE_PRESETS,
  type CallsView,
  type FlagFilter,
  type RangePreset,
} from './reportView.ts';
import { useReport, type ReportRequest } from './useReport.ts';

/** The company's members, for the agent filter (admins may list them). */
async function loadStaff({ api, token }: ReportRequest, companyId: number) {
  const { data } = await api(adminRoutes.companyStaff, {
    params: { id: String(companyId) },
    ...(token ? { token } : {}),
  });
  return data;
}

const WEEKDAYS_FROM_MONDAY = [1, 2, 3, 4, 5, 6, 0];
const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
const RATINGS = [5, 4, 3, 2, 1];
const FLAG_LABELS: Record<FlagFilter, MessageKey> = {
  recorded: 'reportRecorded',
  relayed: 'reportRelayed',
  held: 'reportHeld',
  transferred: 'reportTransferred',
  poorQuality: 'reportPoorQualityFilter',
  rated: 'reportRated',
};

/** A yes/no filter's select value: '' for either. */
const flagValue = (value: boolean | undefined) => (value === undefined ? '' : String(value));
const readFlag = (value: string) => (value === '' ? undefined : value === 'true');
const readNumber = (value: string) => (value === '' ? undefined : Number(value));

/**
 * The range, filters and cut-offs of a report, edited as a draft and shown on Apply (the page
 * loads once per choice, not per keystroke). `calls` adds the call list's own filters; the
 * figures' page has the service level's cut-offs instead. The parent keys it by the address, so
 * a new address (a link, Back) starts a new draft.
 */
export function ReportFilters(props: {
  view: CallsView;
  kind: 'figures' | 'calls';
  timeZone: string;
  onApply: (view: CallsView) => void;
}) {
  const categories = useAppSelector((state) => state.auth.company?.categories) ?? [];
  const companyId = useAppSelector((state) => state.auth.login?.user.companyId);
  const [draft, setDraft] = useState<CallsView>(props.view);
  const staff = useReport(useStaffLoader(companyId)).view;
  const agents = staff.state === 'ready' ? staff.data : [];

  const change = (changes: Partial<CallsView>) =>
    setDraft((current) => ({ ...current, ...changes }));
  /** Sets an optional filter, or takes it out of the view (`undefined`: any). */
  const setFilter = (name: keyof CallsView, value: number | boolean | string | undefined) => {
    setDraft((current) => {
      const others = Object.entries(current).filter(([key]) => key !== name);
      return Object.fromEntries(
        value === undefined ? others : [...others, [name, value]],
      ) as CallsView;
    });
  };
  const setRange = (range: RangePreset) => change({ range });

  return (
    <form
      className="report-filters"
      aria-label={t('reportFilters')}
      onSubmit={(event) => {
        event.preventDefault();
        props.onApply(draft);
      }}
    >
      <div className="report-filter-fields">
        <label>
          {t('reportRange')}
          <select
            value={draft.range}
            onChange={(event) => setRange(event.target.value as RangePreset)}
          >
            {RANGE_PRESETS.map((preset) => (
              <option key={preset} value={preset}>
                {t(`reportRange_${preset}`)}
              </option>
            ))}
          </select>
        </label>
        {draft.range === 'custom' && (
          <>
            <label>
              {t('reportFrom')}
              <input
                type="date"
                required
                value={draft.from}
                max={draft.to}
                onChange={(event) => change({ from: event.target.value })}
              />
            </label>
            <label>
              {t('reportTo')}
              <input
                type="date"
                required
                value={draft.to}
                min={draft.from}
                onChange={(event) => change({ to: event.target.value })}
              />
            </label>
          </>
        )}
        <label>
          {t('reportCategory')}
          <select
            value={draft.categoryId ?? ''}
            onChange={(event) => setFilter('categoryId', readNumber(event.target.value))}
          >
            <option value="">{t('reportAllCategories')}</option>
            {categories.map((category) => (
              <option key={category.id} value={category.id}>
                {category.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('reportAgent')}
          <select
            value={draft.agentId ?? ''}
            onChange={(event) => setFilter('agentId', readNumber(event.target.value))}
          >
            <option value="">{t('reportAllAgents')}</option>
            {draft.agentId !== undefined && !agents.some((agent) => agent.id === draft.agentId) && (
              <option value={draft.agentId}>
                {t('reportAgentNumber', { id: String(draft.agentId) })}
              </option>
            )}
            {agents.map((agent) => (
              <option key={agent.id} value={agent.id}>
                {agent.name}
              </option>
            ))}
          </select>
        </label>
        {props.kind === 'calls' && <CallFilterFields draft={draft} setFilter={setFilter} />}
        <label className="report-check">
          <input
            type="checkbox"
            checked={draft.businessHours}
            onChange={(event) => change({ businessHours: event.target.checked })}
          />
          {t('reportBusinessHours')}
        </label>
      </div>
      <details className="report-cut-offs">
        <summary>
          {props.kind === 'figures'
            ? t('reportCutOffsSummary', {
                short: String(props.view.shortAbandonSeconds),
                target: String(Math.round(props.view.serviceLevelTarget * 100)),
                seconds: String(props.view.serviceLevelSeconds),
              })
            : t('reportShortAbandonSummary', { short: String(props.view.shortAbandonSeconds) })}
        </summary>
        <div className="report-filter-fields">
          <NumberField
            label={t('reportShortAbandonSeconds')}
            help={t('reportShortAbandonHelp')}
            value={draft.shortAbandonSeconds}
            min={0}
            max={600}
            onChange={(shortAbandonSeconds) => change({ shortAbandonSeconds })}
          />
          {props.kind === 'figures' && (
            <>
              <NumberField
                label={t('reportServiceLevelSeconds')}
                help={t('reportServiceLevelSecondsHelp')}
                value={draft.serviceLevelSeconds}
                min={1}
                max={3600}
                onChange={(serviceLevelSeconds) => change({ serviceLevelSeconds })}
              />
              <NumberField
                label={t('reportServiceLevelTarget')}
                help={t('reportServiceLevelTargetHelp')}
                value={Math.round(draft.serviceLevelTarget * 100)}
                min={0}
                max={100}
                onChange={(percent) => change({ serviceLevelTarget: percent / 100 })}
              />
            </>
          )}
        </div>
      </details>
      <div className="report-apply">
        <button type="submit">{t('reportApply')}</button>
        <p className="help">
          {t('reportShownRange', {
            from: formatDay(props.view.from),
            to: formatDay(props.view.to),
            zone: props.timeZone,
          })}
        </p>
      </div>
    </form>
  );
}

/** The staff loader for the agent filter, one per company (a stable identity for useReport). */
function useStaffLoader(companyId: number | undefined) {
  const [loader] = useState(
    () => (request: ReportRequest) =>
      companyId === undefined ? Promise.resolve([]) : loadStaff(request, companyId),
  );
  return loader;
}

/**
 * The call list's own filters: what happened, the rating, yes-or-no facts (recorded, relayed,
 * held, transferred, poor quality, rated), day and hour.
 */
function CallFilterFields(props: {
  draft: CallsView;
  setFilter: (name: keyof CallsView, value: number | boolean | string | undefined) => void;
}) {
  const { draft, setFilter } = props;
  return (
    <>
      <label>
        {t('reportOutcome')}
        <select
          value={draft.outcome ?? ''}
          onChange={(event) =>
            setFilter(
              'outcome',
              event.target.value === '' ? undefined : (event.target.value as CallOutcome),
            )
          }
        >
          <option value="">{t('reportAnyOutcome')}</option>
          {callOutcomeSchema.options.map((outcome) => (
            <option key={outcome} value={outcome}>
              {t(`callOutcome_${outcome}`)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('reportRating')}
        <select
          value={draft.rating ?? ''}
          onChange={(event) => setFilter('rating', readNumber(event.target.value))}
        >
          <option value="">{t('reportAnyRating')}</option>
          {RATINGS.map((rating) => (
            <option key={rating} value={rating}>
              {t('reportRatingValue', { rating: String(rating) })}
            </option>
          ))}
        </select>
      </label>
      {FLAG_FILTERS.map((name) => (
        <FlagSelect
          key={name}
          label={t(FLAG_LABELS[name])}
          value={draft[name]}
          onChange={(value) => setFilter(name, value)}
        />
      ))}
      <label>
        {t('reportWeekday')}
        <select
          value={draft.weekday ?? ''}
          onChange={(event) => setFilter('weekday', readNumber(event.target.value))}
        >
          <option value="">{t('reportAnyDay')}</option>
          {WEEKDAYS_FROM_MONDAY.map((weekday) => (
            <option key={weekday} value={weekday}>
              {weekdayName(weekday)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('reportHour')}
        <select
          value={draft.hour ?? ''}
          onChange={(event) => setFilter('hour', readNumber(event.target.value))}
        >
          <option value="">{t('reportAnyHour')}</option>
          {HOURS.map((hour) => (
            <option key={hour} value={hour}>
              {hourSpan(hour)}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}

function FlagSelect(props: {
  label: string;
  value: boolean | undefined;
  onChange: (value: boolean | undefined) => void;
}) {
  return (
    <label>
      {props.label}
      <select
        value={flagValue(props.value)}
        onChange={(event) => props.onChange(readFlag(event.target.value))}
      >
        <option value="">{t('reportEither')}</option>
        <option value="true">{t('reportYes')}</option>
        <option value="false">{t('reportNo')}</option>
      </select>
    </label>
  );
}

/**
 * A whole number within bounds. What it holds is typed freely; only a valid number reaches the
 * draft, and the browser refuses to apply the form while the field is not one.
 */
function NumberField(props: {
  label: string;
  help: ReactNode;
  value: number;
  min: number;
  max: number;
  onChange: (value: number) => void;
}) {
  const id = useId();
  const [text, setText] = useState(String(props.value));
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={props.min}
        max={props.max}
        step={1}
        required
        value={text}
        aria-describedby={`${id}-help`}
        onChange={(event) => {
          setText(event.target.value);
          const value = Number(event.target.value);
          if (event.target.value !== '' && Number.isInteger(value)) props.onChange(value);
        }}
      />
      <p id={`${id}-help`} className="help">
        {props.help}
      </p>
    </div>
  );
}
