import { useState } from 'react';
import { Link } from 'react-router';
import type { AgentFigures } from '@frontdesk/protocol';
import { t, type MessageKey } from '../../../i18n/messages.ts';
import { formatCount, formatDuration, formatRatio } from '../format.ts';
import { TableScroll } from '../TableScroll.tsx';

type Direction = 'ascending' | 'descending';

/** The table's columns, each sortable by its value (a missing one sorts last either way). */
const COLUMNS: { label: MessageKey; value: (agent: AgentFigures) => string | number | null }[] = [
  { label: 'reportAgent', value: (agent) => agent.name },
  { label: 'reportAnswered', value: (agent) => agent.answered },
  { label: 'reportHandleTime', value: (agent) => agent.averageHandleTimeMs },
  { label: 'reportCsat', value: (agent) => agent.csat.score },
  { label: 'reportMissedOffers', value: (agent) => agent.missedOffers },
];

const names = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function sorted(agents: AgentFigures[], column: number, direction: Direction): AgentFigures[] {
  const value = COLUMNS[column]?.value ?? (() => null);
  const sign = direction === 'ascending' ? 1 : -1;
  return agents.toSorted((a, b) => {
    const [x, y] = [value(a), value(b)];
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    return sign * (typeof x === 'string' ? names.compare(x, String(y)) : x - Number(y));
  });
}

/**
 * Each agent's figures, busiest first; any column sorts the table (names A to Z, figures
 * highest first, again to reverse). The name leads to the agent's calls, the count to those
 * answered.
 */
export function AgentTable(props: {
  agents: AgentFigures[];
  drill: (agentId: number, answeredOnly: boolean) => string;
}) {
  const [sort, setSort] = useState<{ column: number; direction: Direction }>({
    column: 1,
    direction: 'descending',
  });
  if (props.agents.length === 0) return <p className="report-empty">{t('reportNoAgents')}</p>;

  const sortBy = (column: number) =>
    setSort((current) => ({
      column,
      direction:
        current.column === column
          ? current.direction === 'ascending'
            ? 'descending'
            : 'ascending'
          : column === 0
            ? 'ascending'
            : 'descending',
    }));

  return (
    <TableScroll label={t('reportSectionAgents')}>
      <table className="report-table" data-testid="agent-table">
        <thead>
          <tr>
            {COLUMNS.map((column, index) => {
              const active = sort.column === index;
              return (
                <th key={column.label} scope="col" aria-sort={active ? sort.direction : undefined}>
                  <button type="button" className="sort" onClick={() => sortBy(index)}>
                    {t(column.label)}
                    <span aria-hidden="true" className="sort-arrow">
                      {active ? (sort.direction === 'ascending' ? '▲' : '▼') : ''}
                    </span>
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {sorted(props.agents, sort.column, sort.direction).map((agent) => (
            <tr key={agent.agentId}>
              <th scope="row">
                <Link to={props.drill(agent.agentId, false)}>{agent.name}</Link>
              </th>
              <td>
                <Link
                  to={props.drill(agent.agentId, true)}
                  aria-label={t('reportAgentAnswered', {
                    name: agent.name,
                    count: formatCount(agent.answered),
                  })}
                >
                  {formatCount(agent.answered)}
                </Link>
              </td>
              <td>{formatDuration(agent.averageHandleTimeMs)}</td>
              <td>
                {t('reportCsatOf', {
                  score: formatRatio(agent.csat.score),
                  responses: formatCount(agent.csat.responses),
                })}
              </td>
              <td>{formatCount(agent.missedOffers)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
