import { useId } from 'react';
import { Link, useNavigate } from 'react-router';
import { Bar, BarChart, Cell, LabelList, XAxis, YAxis } from 'recharts';
import { t } from '../../../i18n/messages.ts';
import { formatCount, formatRatio } from '../format.ts';

export type DrillBar = {
  key: string;
  label: string;
  /** The chart's axis, where the label is too long for a phone (ratings: "5" for "5 of 5"). */
  axisLabel?: string;
  count: number;
  to: string;
  colour: string;
};

/**
 * Counts as bars, each bar a way to the calls behind it. The chart is for the eye; the table
 * under it says the same (with the share of each) for keyboards and screen readers, and its
 * counts are the links they follow.
 */
export function DrillBars(props: {
  title: string;
  bars: DrillBar[];
  /** Shown instead when every count is zero. */
  empty: string;
  layout?: 'horizontal' | 'vertical';
  testId?: string;
}) {
  const id = useId();
  const navigate = useNavigate();
  const total = props.bars.reduce((sum, bar) => sum + bar.count, 0);
  const vertical = props.layout === 'vertical';
  return (
    <figure className="drill-bars" aria-labelledby={`${id}-title`} data-testid={props.testId}>
      <figcaption id={`${id}-title`}>{props.title}</figcaption>
      {total === 0 ? (
        <p className="report-empty">{props.empty}</p>
      ) : (
        <div className="drill-bars-body">
          <div className="drill-bars-chart" aria-hidden="true">
            <BarChart
              responsive
              data={props.bars.map((bar) => ({ ...bar, axisLabel: bar.axisLabel ?? bar.label }))}
              layout={vertical ? 'vertical' : 'horizontal'}
              margin={{ top: 16, right: 48, bottom: 0, left: 0 }}
              style={{ width: '100%', height: vertical ? props.bars.length * 36 + 24 : 200 }}
              accessibilityLayer={false}
            >
              {vertical ? (
                <>
                  <XAxis type="number" hide />
                  <YAxis
                    type="category"
                    dataKey="axisLabel"
                    width={112}
                    tickLine={false}
                    tick={{ fontSize: 13 }}
                  />
                </>
              ) : (
                <>
                  <XAxis dataKey="axisLabel" tickLine={false} />
                  <YAxis allowDecimals={false} width={36} />
                </>
              )}
              <Bar
                dataKey="count"
                cursor="pointer"
                isAnimationActive={false}
                onClick={(entry) => {
                  const bar = entry.payload as DrillBar | undefined;
                  if (bar) void navigate(bar.to);
                }}
              >
                {props.bars.map((bar) => (
                  <Cell key={bar.key} fill={bar.colour} />
                ))}
                <LabelList dataKey="count" position={vertical ? 'right' : 'top'} />
              </Bar>
            </BarChart>
          </div>
          <table className="report-table compact">
            <thead>
              <tr>
                <th scope="col">{t('reportTableWhat')}</th>
                <th scope="col">{t('reportTableCalls')}</th>
                <th scope="col">{t('reportTableShare')}</th>
              </tr>
            </thead>
            <tbody>
              {props.bars.map((bar) => (
                <tr key={bar.key}>
                  <th scope="row">
                    <span
                      className="swatch"
                      style={{ background: bar.colour }}
                      aria-hidden="true"
                    />
                    {bar.label}
                  </th>
                  <td>
                    <Link to={bar.to}>{formatCount(bar.count)}</Link>
                  </td>
                  <td>{formatRatio(bar.count / total)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </figure>
  );
}
