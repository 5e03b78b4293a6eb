import { Link } from 'react-router';
import type { ReportCall } from '@frontdesk/protocol';
import { t } from '../../../i18n/messages.ts';
import { formatDateTime } from '../../admin/listPage/formatTime.ts';
import { formatDuration, NONE } from '../format.ts';
import { OutcomeBadge, QualityFlags } from './CallBadges.tsx';
import { TableScroll } from '../TableScroll.tsx';

/** Where a call's page is; `search` is the list's filters, for its way back. */
export const callPageLink = (callId: string) => `/reports/calls/${encodeURIComponent(callId)}`;

/**
 * The calls as a table with a header for every column; on a phone each row is a card, its cells
 * labelled by their column (reports.css).
 */
export function CallTable(props: { calls: ReportCall[]; timeZone: string; search: string }) {
  const columns = [
    t('reportStarted'),
    t('reportOutcome'),
    t('reportWait'),
    t('reportHandle'),
    t('reportAgent'),
    t('reportCategory'),
    t('reportRating'),
    t('reportHoldsTransfers'),
    t('reportRecording'),
    t('reportMethod'),
    t('reportQuality'),
  ] as const;
  const [
    started,
    outcome,
    wait,
    handle,
    agent,
    category,
    rating,
    holds,
    recording,
    method,
    quality,
  ] = columns;
  return (
    <TableScroll label={t('reportsCalls')}>
      <table className="report-table call-table" data-testid="call-table">
        <caption className="visually-hidden">
          {t('reportCallTableCaption', { zone: props.timeZone })}
        </caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.calls.map((call) => (
            <tr key={call.callId} data-testid="call-row">
              <th scope="row" data-label={started}>
                <Link to={callPageLink(call.callId)} state={{ search: props.search }}>
                  {formatDateTime(call.startedAt, props.timeZone)}
                </Link>
              </th>
              <td data-label={outcome}>
                <OutcomeBadge outcome={call.outcome} />
              </td>
              <td data-label={wait}>{formatDuration(call.waitMs)}</td>
              <td data-label={handle}>{formatDuration(call.handleMs)}</td>
              <td data-label={agent}>{call.agent?.name ?? NONE}</td>
              <td data-label={category}>{call.category?.name ?? NONE}</td>
              <td data-label={rating}>
                {call.rating === null
                  ? NONE
                  : t('reportRatingValue', { rating: String(call.rating) })}
              </td>
              <td data-label={holds}>
                {t('reportHoldsTransfersValue', {
                  holds: String(call.holds),
                  transfers: String(call.transfers),
                })}
              </td>
              <td data-label={recording}>{call.recorded ? t('reportYes') : t('reportNo')}</td>
              <td data-label={method}>{t(`option_callMethod_${call.callMethod}`)}</td>
              <td data-label={quality}>
                <QualityFlags call={call} empty={NONE} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
