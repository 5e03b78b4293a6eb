import { Link } from 'react-router';
import type { AgentFigures } from '@frontdesk/protocol';
import { t } from '../../../i18n/messages.ts';
import { formatCount, formatDuration, formatRatio } from '../format.ts';
import { TableScroll } from '../TableScroll.tsx';

/** Each agent's figures; the name leads to the agent's calls, the count to those answered. */
export function AgentTable(props: {
  agents: AgentFigures[];
  drill: (agentId: number, answeredOnly: boolean) => string;
}) {
  if (props.agents.length === 0) return <p className="report-empty">{t('reportNoAgents')}</p>;
  return (
    <TableScroll label={t('reportSectionAgents')}>
      <table className="report-table" data-testid="agent-table">
        <thead>
          <tr>
            <th scope="col">{t('reportAgent')}</th>
            <th scope="col">{t('reportAnswered')}</th>
            <th scope="col">{t('reportHandleTime')}</th>
            <th scope="col">{t('reportCsat')}</th>
            <th scope="col">{t('reportMissedOffers')}</th>
          </tr>
        </thead>
        <tbody>
          {props.agents.map((agent) => (
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
