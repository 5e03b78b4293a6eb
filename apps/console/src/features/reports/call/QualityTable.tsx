import type { CallQualityReport } from '@frontdesk/protocol';
import { t } from '../../../i18n/messages.ts';
import { formatCount, formatDecimal, formatMs, formatRatio, NONE } from '../format.ts';
import { TableScroll } from '../TableScroll.tsx';

/**
 * Why a side's report is poor, by the reports' rule (docs/reports.md, reportSummarySchema's
 * `quality.poor`): ICE failed, loss over 5 %, round trip over 400 ms or set-up over 5 s.
 */
function poorReasons(report: CallQualityReport, loss: number | null): string[] {
  return [
    report.iceFailed && t('reportPoorIce'),
    loss !== null && loss > 0.05 && t('reportPoorLoss'),
    report.roundTripMs !== null && report.roundTripMs > 400 && t('reportPoorRoundTrip'),
    report.setupMs !== null && report.setupMs > 5000 && t('reportPoorSetup'),
  ].filter((reason): reason is string => typeof reason === 'string');
}

const kbps = (value: number | null) =>
  value === null ? NONE : t('reportKbps', { value: formatDecimal(value) });

/** Each side's measurements of its media, a column per side, the poor ones flagged with why. */
export function QualityTable(props: { reports: CallQualityReport[]; legs: boolean }) {
  if (props.reports.length === 0) return <p className="report-empty">{t('reportNoQuality')}</p>;
  const sides = props.reports.map((report) => {
    const packets = report.packetsReceived + report.packetsLost;
    const loss = packets > 0 ? report.packetsLost / packets : null;
    return { report, loss, poor: poorReasons(report, loss) };
  });
  const rows: [string, (side: (typeof sides)[number]) => string][] = [
    [t('reportSetup'), ({ report }) => formatMs(report.setupMs)],
    [
      t('reportCandidates'),
      ({ report }) =>
        t('reportCandidatesValue', {
          local: report.localCandidateType ?? NONE,
          remote: report.remoteCandidateType ?? NONE,
        }) + (report.relayProtocol ? ` (${report.relayProtocol.toUpperCase()})` : ''),
    ],
    [
      t('reportLoss'),
      ({ report, loss }) =>
        t('reportLossValue', {
          ratio: formatRatio(loss),
          lost: formatCount(report.packetsLost),
          received: formatCount(report.packetsReceived),
        }),
    ],
    [t('reportJitter'), ({ report }) => formatMs(report.jitterMs)],
    [t('reportRoundTrip'), ({ report }) => formatMs(report.roundTripMs)],
    [
      t('reportBitrate'),
      ({ report }) =>
        t('reportBitrateValue', { send: kbps(report.sendKbps), receive: kbps(report.receiveKbps) }),
    ],
    [t('reportReconnects'), ({ report }) => formatCount(report.reconnects)],
  ];
  return (
    <TableScroll label={t('reportSectionQuality')}>
      <table className="report-table quality-table" data-testid="quality-table">
        <thead>
          <tr>
            <td />
            {sides.map(({ report, poor }) => (
              <th key={`${report.callId}-${report.role}`} scope="col">
                {t(report.role === 'guest' ? 'reportSideGuest' : 'reportSideAgent')}
                {props.legs && <span className="help"> {report.callId}</span>}{' '}
                {poor.length > 0 ? (
                  <span className="flag bad">{t('reportPoor')}</span>
                ) : (
                  <span className="flag good">{t('reportGood')}</span>
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(([name, value]) => (
            <tr key={name}>
              <th scope="row">{name}</th>
              {sides.map((side) => (
                <td key={`${side.report.callId}-${side.report.role}`}>{value(side)}</td>
              ))}
            </tr>
          ))}
          <tr>
            <th scope="row">{t('reportWhyPoor')}</th>
            {sides.map((side) => (
              <td key={`${side.report.callId}-${side.report.role}`} data-testid="poor-reasons">
                {side.poor.length > 0 ? side.poor.join(', ') : NONE}
              </td>
            ))}
          </tr>
        </tbody>
      </table>
    </TableScroll>
  );
}
