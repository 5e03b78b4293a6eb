import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { reportRoutes, type CallOutcome, type ReportSummary } from '@frontdesk/protocol';
import { t } from '../../../i18n/messages.ts';
import { EmptyState } from '../../../ui/ListState.tsx';
import { LoadStatus } from '../../admin/LoadGate.tsx';
import { formatCount, formatDecimal, formatDuration, formatMs, formatRatio } from '../format.ts';
import { ReportFilters } from '../ReportFilters.tsx';
import {
  readReportView,
  summaryQuery,
  viewParams,
  type CallsView,
  type ReportView,
} from '../reportView.ts';
import { useReportFor, useReportTimeZone, type ReportRequest } from '../useReport.ts';
import { AgentTable } from './AgentTable.tsx';
import { DrillBars } from './DrillBars.tsx';
import { FigureGrid, FigureSection, type Figure } from './FigureCard.tsx';
import { Heatmap } from './Heatmap.tsx';
import { RatingForms } from './RatingForms.tsx';

async function loadSummary(
  { api, token }: ReportRequest,
  query: ReturnType<typeof summaryQuery>,
): Promise<ReportSummary> {
  const { data } = await api(reportRoutes.reportSummary, { query, ...(token ? { token } : {}) });
  return data;
}

/** The calls page's address for the figures' view narrowed by `extra`. */
export const callsLink = (view: ReportView, extra: Partial<CallsView> = {}) =>
  `/reports/calls?${viewParams({ ...view, ...extra }).toString()}`;

/**
 * The company's figures for a range (`/console/reports`): the contact centre's usual ones, the
 * guests' ratings, when guests call, each agent, and what the video calls measured. Every figure
 * with a filter for its calls links to them.
 */
export function FiguresPage() {
  const timeZone = useReportTimeZone();
  const [params, setParams] = useSearchParams();
  // "Today" is the day the page was opened: the figures do not move under the admin's eyes.
  const [now] = useState(() => new Date());
  const view = readReportView(params, timeZone, now);
  const { view: summary, retry } = useReportFor(summaryQuery(view), loadSummary);

  return (
    <section
      className="reports-page"
      aria-labelledby="reports-page-title"
      data-testid="figures-page"
    >
      <h2 id="reports-page-title">{t('reportsFigures')}</h2>
      <ReportFilters
        key={params.toString()}
        view={view}
        kind="figures"
        timeZone={timeZone}
        onApply={(next) => setParams(viewParams(next))}
      />
      <div aria-live="polite" className="report-live">
        {summary.state === 'ready' && summary.refreshing && (
          <p className="report-refreshing">{t('reportRefreshing')}</p>
        )}
      </div>
      {summary.state === 'ready' ? (
        <Figures summary={summary.data} view={view} timeZone={timeZone} />
      ) : (
        <LoadStatus
          className="reports-status"
          loading={t('reportSummaryLoading')}
          failure={
            summary.state === 'failed'
              ? t('reportSummaryFailed', { reason: summary.message })
              : null
          }
          onRetry={retry}
        />
      )}
    </section>
  );
}

/** Outcome colours: the same in the chart and its table's swatches. */
const OUTCOME_COLOURS: Record<CallOutcome, string> = {
  answered: '#15803d',
  abandoned: '#b91c1c',
  shortAbandoned: '#d97706',
  live: '#1d4ed8',
  blocked: '#4b5563',
  outOfQuota: '#7c3aed',
};
const RATING_COLOURS = ['#b91c1c', '#ea580c', '#ca8a04', '#65a30d', '#15803d'];

function Figures(props: { summary: ReportSummary; view: ReportView; timeZone: string }) {
  const { summary, view } = props;
  const drill = (extra: Partial<CallsView> = {}) => callsLink(view, extra);
  const refused = summary.refused.blocked + summary.refused.outOfQuota;
  if (summary.calls === 0 && refused === 0) {
    return (
      <EmptyState
        title={t('reportNoCallsInRange')}
        hint={t('figuresEmptyHint')}
        testId="figures-empty"
      />
    );
  }
  const serviceLevel = summary.serviceLevel;
  const serviceTone =
    serviceLevel.ratio === null
      ? undefined
      : serviceLevel.ratio >= serviceLevel.target
        ? 'good'
        : 'bad';
  const outcomes: Record<CallOutcome, number> = {
    answered: summary.answered,
    abandoned: summary.abandoned,
    shortAbandoned: summary.shortAbandoned,
    live: summary.live,
    blocked: summary.refused.blocked,
    outOfQuota: summary.refused.outOfQuota,
  };
  const { quality, csat } = summary;
  // The ratings the satisfaction figures are worked out from: answered calls the guest rated.
  const rated = drill({ outcome: 'answered', rated: true });

  const callFigures: Figure[] = [
    {
      label: t('reportCallsOffered'),
      value: formatCount(summary.calls),
      to: drill(),
      detail: summary.live > 0 ? t('reportLiveNow', { count: summary.live }) : null,
      testId: 'figure-calls',
    },
    {
      label: t('reportAnswered'),
      value: formatCount(summary.answered),
      to: drill({ outcome: 'answered' }),
      testId: 'figure-answered',
    },
    {
      label: t('reportAbandoned'),
      value: formatCount(summary.abandoned),
      to: drill({ outcome: 'abandoned' }),
      detail:
        summary.shortAbandoned === 0 ? (
          t('reportNoShortAbandons', { seconds: String(view.shortAbandonSeconds) })
        ) : (
          <Link to={drill({ outcome: 'shortAbandoned' })}>
            {t('reportShortAbandonedApart', {
              count: summary.shortAbandoned,
              seconds: String(view.shortAbandonSeconds),
            })}
          </Link>
        ),
      testId: 'figure-abandoned',
    },
    {
      label: t('reportAbandonmentRate'),
      value: formatRatio(summary.abandonmentRate),
      to: drill({ outcome: 'abandoned' }),
      testId: 'figure-abandonment-rate',
    },
    {
      label: t('reportSpeedOfAnswer'),
      value: formatDuration(summary.averageSpeedOfAnswerMs),
      to: drill({ outcome: 'answered' }),
      testId: 'figure-asa',
    },
    {
      label: t('reportServiceLevel'),
      value: formatRatio(serviceLevel.ratio),
      to: drill({ outcome: 'answered' }),
      tone: serviceTone,
      detail: t(serviceTone === 'bad' ? 'reportServiceLevelMissed' : 'reportServiceLevelDetail', {
        seconds: String(serviceLevel.thresholdSeconds),
        target: formatRatio(serviceLevel.target),
      }),
      testId: 'figure-service-level',
    },
    {
      label: t('reportHandleTime'),
      value: formatDuration(summary.averageHandleTimeMs),
      to: drill({ outcome: 'answered' }),
      testId: 'figure-handle-time',
    },
    {
      label: t('reportHolds'),
      value: formatCount(summary.holds.count),
      to: drill({ held: true }),
      detail:
        summary.holds.count === 0
          ? t('reportNoHolds')
          : t('reportHoldsDetail', {
              calls: formatCount(summary.holds.calls),
              average: formatDuration(summary.holds.averageMs),
              total: formatDuration(summary.holds.totalMs),
            }),
      testId: 'figure-holds',
    },
    {
      label: t('reportTransfers'),
      value: formatCount(summary.transfers),
      to: drill({ transferred: true }),
      testId: 'figure-transfers',
    },
    {
      label: t('reportRefused'),
      value: formatCount(refused),
      detail: (
        <>
          <Link to={drill({ outcome: 'blocked' })}>
            {t('reportBlockedCount', { count: summary.refused.blocked })}
          </Link>
          {' · '}
          <Link to={drill({ outcome: 'outOfQuota' })}>
            {t('reportOutOfQuotaCount', { count: summary.refused.outOfQuota })}
          </Link>
        </>
      ),
      testId: 'figure-refused',
    },
  ];
  const satisfactionFigures: Figure[] = [
    {
      label: t('reportCsatScore'),
      value: formatRatio(csat.score),
      to: rated,
      detail: t('reportCsatScoreHelp'),
      testId: 'figure-csat',
    },
    {
      label: t('reportCsatResponses'),
      value: formatCount(csat.responses),
      to: rated,
      detail: t('reportResponseRate', { rate: formatRatio(csat.responseRate) }),
      testId: 'figure-csat-responses',
    },
    {
      label: t('reportCsatAverage'),
      value: formatDecimal(csat.average),
      to: rated,
      detail: t('reportCsatAverageHelp'),
      testId: 'figure-csat-average',
    },
  ];
  /** A measure's median, with its 95th percentile under it. */
  const spread = (label: string, median: string, p95: string): Figure => ({
    label,
    value: median,
    detail: t('reportP95', { value: p95 }),
  });
  const qualityFigures: Figure[] = [
    {
      label: t('reportMeasured'),
      value: formatCount(quality.measured),
      detail: t('reportMeasuredHelp'),
    },
    {
      label: t('reportRelayed'),
      value: formatCount(quality.relayed),
      to: drill({ relayed: true }),
      detail: t('reportRelayedHelp'),
      testId: 'figure-relayed',
    },
    {
      label: t('reportPoorQuality'),
      value: formatCount(quality.poor),
      to: drill({ poorQuality: true }),
      tone: quality.poor > 0 ? 'bad' : undefined,
      detail: t('reportPoorHelp'),
      testId: 'figure-poor',
    },
    spread(t('reportSetup'), formatMs(quality.setupMs.median), formatMs(quality.setupMs.p95)),
    spread(
      t('reportRoundTrip'),
      formatMs(quality.roundTripMs.median),
      formatMs(quality.roundTripMs.p95),
    ),
    spread(
      t('reportLoss'),
      formatRatio(quality.lossRatio.median),
      formatRatio(quality.lossRatio.p95),
    ),
    {
      label: t('reportRecordings'),
      value: formatCount(summary.recordings.ready),
      to: drill({ recorded: true }),
      detail: t('reportRecordingsDetail', {
        pending: formatCount(summary.recordings.pending),
        failed: formatCount(summary.recordings.failed),
      }),
      tone: summary.recordings.failed > 0 ? 'bad' : undefined,
      testId: 'figure-recordings',
    },
  ];

  return (
    <div className="figures">
      <FigureSection title={t('reportSectionCalls')}>
        <FigureGrid figures={callFigures} />
        <DrillBars
          title={t('reportOutcomeSplit')}
          empty={t('reportNoCalls')}
          layout="vertical"
          testId="outcome-chart"
          bars={Object.entries(outcomes).map(([outcome, count]) => ({
            key: outcome,
            label: t(`callOutcome_${outcome as CallOutcome}`),
            count,
            to: drill({ outcome: outcome as CallOutcome }),
            colour: OUTCOME_COLOURS[outcome as CallOutcome],
          }))}
        />
      </FigureSection>

      <FigureSection title={t('reportSectionSatisfaction')}>
        <FigureGrid figures={satisfactionFigures} />
        <DrillBars
          title={t('reportCsatDistribution')}
          empty={t('reportNoRatings')}
          testId="csat-chart"
          bars={csat.distribution.map((count, index) => ({
            key: String(index + 1),
            label: t('reportRatingValue', { rating: String(index + 1) }),
            axisLabel: String(index + 1),
            count,
            to: drill({ rating: index + 1 }),
            colour: RATING_COLOURS[index] ?? '#1d4ed8',
          }))}
        />
        <h4>{t('reportRatingFormAnswers')}</h4>
        <RatingForms forms={summary.ratingForms} />
      </FigureSection>

      <FigureSection title={t('reportSectionWhen')}>
        <Heatmap cells={summary.heatmap} timeZone={props.timeZone} drill={(cell) => drill(cell)} />
      </FigureSection>

      <FigureSection title={t('reportSectionAgents')}>
        <AgentTable
          agents={summary.agents}
          drill={(agentId, answeredOnly) =>
            drill({ agentId, ...(answeredOnly ? { outcome: 'answered' as const } : {}) })
          }
        />
      </FigureSection>

      <FigureSection title={t('reportSectionQuality')}>
        <FigureGrid figures={qualityFigures} />
      </FigureSection>
    </div>
  );
}
