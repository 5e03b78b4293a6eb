import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { reportRoutes, type ReportCall } from '@frontdesk/protocol';
import { describeError } from '../../../app/errors.ts';
import { t } from '../../../i18n/messages.ts';
import { EmptyState } from '../../../ui/ListState.tsx';
import { LoadStatus } from '../../admin/LoadGate.tsx';
import { ReportFilters } from '../ReportFilters.tsx';
import { callsQuery, readCallsView, viewParams } from '../reportView.ts';
import {
  useReportFor,
  useReportRequest,
  useReportTimeZone,
  type ReportRequest,
} from '../useReport.ts';
import { CallTable } from './CallTable.tsx';
import { CsvDownload } from './CsvDownload.tsx';

type CallsQuery = ReturnType<typeof callsQuery>;

async function loadCallsPage({ api, token }: ReportRequest, query: CallsQuery) {
  const { data } = await api(reportRoutes.reportCalls, { query, ...(token ? { token } : {}) });
  return data;
}

/** The pages after the first, for the query they were loaded for. */
type LaterPages = {
  key: string;
  calls: ReportCall[];
  nextCursor: string | null;
  loading: boolean;
  error: string | null;
};

/**
 * The company's calls one by one (`/console/reports/calls`), newest first, filtered as the address
 * says (the figures link here with theirs): a page at a time with "Load more", or every one of
 * them as a CSV file.
 */
export function CallsPage() {
  const timeZone = useReportTimeZone();
  const [params, setParams] = useSearchParams();
  const [now] = useState(() => new Date());
  const view = readCallsView(params, timeZone, now);
  const query = callsQuery(view);
  const key = JSON.stringify(query);
  const { view: first, retry } = useReportFor(query, loadCallsPage);
  const request = useReportRequest();
  const [later, setLater] = useState<LaterPages | null>(null);

  const more = later?.key === key ? later : null;
  const calls = first.state === 'ready' ? [...first.data.calls, ...(more?.calls ?? [])] : [];
  const nextCursor = more
    ? more.nextCursor
    : first.state === 'ready'
      ? first.data.nextCursor
      : null;

  async function loadMore(cursor: string) {
    const earlier = more?.calls ?? [];
    setLater({ key, calls: earlier, nextCursor: cursor, loading: true, error: null });
    try {
      const page = await loadCallsPage(request(), { ...query, cursor });
      setLater({
        key,
        calls: [...earlier, ...page.calls],
        nextCursor: page.nextCursor,
        loading: false,
        error: null,
      });
    } catch (error) {
      setLater({
        key,
        calls: earlier,
        nextCursor: cursor,
        loading: false,
        error: describeError(error),
      });
    }
  }

  return (
    <section className="reports-page" aria-labelledby="reports-page-title" data-testid="calls-page">
      <div className="reports-page-header">
        <h2 id="reports-page-title">{t('reportsCalls')}</h2>
        <CsvDownload query={query} view={view} />
      </div>
      <ReportFilters
        key={params.toString()}
        view={view}
        kind="calls"
        timeZone={timeZone}
        onApply={(next) => setParams(viewParams(next))}
      />
      {first.state !== 'ready' ? (
        <LoadStatus
          className="reports-status"
          loading={t('reportCallsLoading')}
          failure={
            first.state === 'failed' ? t('reportCallsFailed', { reason: first.message }) : null
          }
          onRetry={retry}
        />
      ) : calls.length === 0 ? (
        <EmptyState
          title={t('reportNoMatchingCalls')}
          hint={t('callsEmptyHint')}
          testId="calls-empty"
        />
      ) : (
        <>
          <CallTable calls={calls} timeZone={timeZone} search={params.toString()} />
          <div className="report-more">
            <p role="status" data-testid="calls-count">
              {first.refreshing
                ? t('reportRefreshing')
                : nextCursor === null
                  ? t('reportEveryCallShown', { count: calls.length })
                  : t('reportCallsShown', { count: calls.length })}
            </p>
            {nextCursor !== null && (
              <button
                type="button"
                className="secondary"
                disabled={more?.loading}
                onClick={() => void loadMore(nextCursor)}
              >
                {more?.loading ? t('loading') : t('reportLoadMore')}
              </button>
            )}
            {more?.error && <p role="alert">{t('reportMoreFailed', { reason: more.error })}</p>}
          </div>
        </>
      )}
    </section>
  );
}
