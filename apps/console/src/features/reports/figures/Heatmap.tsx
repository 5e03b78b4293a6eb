import { useId, type CSSProperties } from 'react';
import { Link } from 'react-router';
import type { ReportSummary } from '@frontdesk/protocol';
import { t } from '../../../i18n/messages.ts';
import { formatCount, hourSpan, weekdayName } from '../format.ts';
import { TableScroll } from '../TableScroll.tsx';

const WEEKDAYS_FROM_MONDAY = [1, 2, 3, 4, 5, 6, 0];

/**
 * A cell's shade of the accent colour for its share of the busiest hour, and whether its number
 * is white: dark text reads (4.5:1) on up to 60 % of the accent, white from 80 %, so the busier
 * cells skip the band between.
 */
function shade(level: number): { percent: number; white: boolean } {
  if (level <= 0.6) return { percent: Math.round(level * 100), white: false };
  return { percent: Math.round(80 + ((level - 0.6) / 0.4) * 20), white: true };
}

/** The working day the heatmap always shows, so a few calls still read as a day's shape. */
const DAY_HOURS = { first: 8, last: 17 };

/**
 * The working day and any hour outside it that had calls (and those between): a quiet night
 * takes no room.
 */
function shownHours(cells: ReportSummary['heatmap']): number[] {
  const hours = cells.map((cell) => cell.hour);
  const first = Math.min(DAY_HOURS.first, ...hours);
  const last = Math.max(DAY_HOURS.last, ...hours);
  return Array.from({ length: last - first + 1 }, (_, index) => first + index);
}

/**
 * Calls by weekday and hour, in the company's time zone: a table (so a screen reader names each
 * cell's day and hour) shaded by how busy the hour is; each busy cell is a link to its calls.
 */
export function Heatmap(props: {
  cells: ReportSummary['heatmap'];
  timeZone: string;
  drill: (cell: { weekday: number; hour: number }) => string;
}) {
  const id = useId();
  const counts = new Map(props.cells.map((cell) => [`${cell.weekday}-${cell.hour}`, cell.calls]));
  const busiest = Math.max(1, ...props.cells.map((cell) => cell.calls));
  const hours = shownHours(props.cells);
  return (
    <figure className="heatmap" aria-labelledby={`${id}-title`} data-testid="heatmap">
      <figcaption id={`${id}-title`}>
        {t('reportHeatmapTitle', { zone: props.timeZone })}
      </figcaption>
      {props.cells.length === 0 ? (
        <p className="report-empty">{t('reportNoCalls')}</p>
      ) : (
        <TableScroll label={t('reportHeatmapTitle', { zone: props.timeZone })}>
          <table>
            <thead>
              <tr>
                <td className="heatmap-corner" />
                {hours.map((hour) => (
                  <th key={hour} scope="col" abbr={hourSpan(hour)}>
                    <span aria-hidden="true">{String(hour).padStart(2, '0')}</span>
                    <span className="visually-hidden">{hourSpan(hour)}</span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {WEEKDAYS_FROM_MONDAY.map((weekday) => (
                <tr key={weekday}>
                  <th scope="row">{weekdayName(weekday)}</th>
                  {hours.map((hour) => {
                    const calls = counts.get(`${weekday}-${hour}`) ?? 0;
                    const { percent, white } = shade(calls / busiest);
                    return (
                      <td
                        key={hour}
                        style={{ '--level': `${percent}%` } as CSSProperties}
                        data-dark={white || undefined}
                      >
                        {calls > 0 && (
                          <Link
                            to={props.drill({ weekday, hour })}
                            title={t('reportHeatmapCell', {
                              day: weekdayName(weekday),
                              hours: hourSpan(hour),
                              count: formatCount(calls),
                            })}
                          >
                            {formatCount(calls)}
                          </Link>
                        )}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {props.cells.length > 0 && (
        <p className="heatmap-legend help">
          {t('reportHeatmapLegend', { busiest: formatCount(busiest) })}
        </p>
      )}
    </figure>
  );
}
