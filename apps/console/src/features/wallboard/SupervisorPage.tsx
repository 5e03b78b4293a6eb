import type { Supervisor, SupervisedCall, SupervisedWait } from '@frontdesk/protocol';
import { intlLocale, t } from '../../i18n/messages.ts';
import { EmptyState } from '../../ui/ListState.tsx';
import { guestLabel } from '../chat/guestLabel.ts';
import { LivePage } from './LivePage.tsx';
import { useSupervisor } from './useWallboard.ts';
import { WaitClock } from './WaitClock.tsx';
import './wallboard.css';

type Agent = Supervisor['agents'][number];

/** The guest as the console names it: its name when it gave one, else its short label. */
const guestOf = (call: SupervisedCall | SupervisedWait) =>
  call.guestName ?? guestLabel(call.guestJabberUsername);

/** The call's category and kind, as one line. */
function CallFacts({ call }: { call: SupervisedCall | SupervisedWait }) {
  return (
    <span className="supervisor-facts">
      {call.categoryName ?? t('wallboardNoCategory')}
      {call.callType && <> · {t(`callType_${call.callType}`)}</>}
    </span>
  );
}

/** One call an agent is in: the guest, its category, how long it has lasted, its hold. */
function LiveCall({ call, clockOffsetMs }: { call: SupervisedCall; clockOffsetMs: number }) {
  return (
    <div
      className="supervisor-call"
      data-testid="supervisor-call"
      data-call={call.callId}
      data-hold={call.onHold}
    >
      <p className="supervisor-guest">{guestOf(call)}</p>
      <p>
        <CallFacts call={call} /> ·{' '}
        <span className="visually-hidden">{t('supervisorCallFor')} </span>
        <WaitClock since={call.answeredAt} clockOffsetMs={clockOffsetMs} />
      </p>
      {call.onHold && (
        <p className="supervisor-hold" data-testid="supervisor-hold">
          {t('supervisorOnHold')}
          {call.heldSince && (
            <>
              {' '}
              <WaitClock since={call.heldSince} clockOffsetMs={clockOffsetMs} />
            </>
          )}
        </p>
      )}
    </div>
  );
}

function AgentCard({ agent, clockOffsetMs }: { agent: Agent; clockOffsetMs: number }) {
  return (
    <li
      className="supervisor-agent"
      data-state={agent.state}
      data-testid="supervisor-agent"
      data-agent={agent.id}
    >
      <h4>{agent.name}</h4>
      <p className="supervisor-state">
        <span className="supervisor-dot" aria-hidden="true" />
        {t(`agentState_${agent.state}`)}
      </p>
      {agent.calls.map((call) => (
        <LiveCall key={call.callId} call={call} clockOffsetMs={clockOffsetMs} />
      ))}
    </li>
  );
}

/** The state of each member: those in a call first, then available, away, offline. */
const STATE_ORDER = { inCall: 0, available: 1, away: 2, offline: 3 } as const;

function Floor({ board, clockOffsetMs }: { board: Supervisor; clockOffsetMs: number }) {
  const agents = [...board.agents].sort(
    (a, b) =>
      STATE_ORDER[a.state] - STATE_ORDER[b.state] ||
      b.calls.length - a.calls.length ||
      a.name.localeCompare(b.name, intlLocale()),
  );
  const calls = board.agents.flatMap((agent) => agent.calls);
  const figures = [
    { key: 'inCalls', label: t('supervisorInCalls'), value: calls.length },
    { key: 'onHold', label: t('supervisorOnHold'), value: calls.filter((c) => c.onHold).length },
    { key: 'waiting', label: t('wallboardWaiting'), value: board.waiting.length },
    {
      key: 'available',
      label: t('agentState_available'),
      value: board.agents.filter((agent) => agent.state === 'available').length,
    },
  ];
  return (
    <>
      <dl className="supervisor-figures">
        {figures.map((figure) => (
          <div key={figure.key} data-testid={`supervisor-${figure.key}`}>
            <dt>{figure.label}</dt>
            <dd>{figure.value}</dd>
          </div>
        ))}
      </dl>
      <div className="supervisor-columns">
        <section className="wallboard-card" aria-labelledby="supervisor-team">
          <h3 id="supervisor-team">{t('wallboardTeam')}</h3>
          {agents.length === 0 ? (
            <EmptyState title={t('supervisorNoTeam')} hint={t('supervisorNoTeamHint')} />
          ) : (
            <ul className="supervisor-agents">
              {agents.map((agent) => (
                <AgentCard key={agent.id} agent={agent} clockOffsetMs={clockOffsetMs} />
              ))}
            </ul>
          )}
        </section>
        <section className="wallboard-card" aria-labelledby="supervisor-waiting">
          <h3 id="supervisor-waiting">
            {t('queueTitle')} <span className="count-badge">{board.waiting.length}</span>
          </h3>
          {board.waiting.length === 0 ? (
            <EmptyState
              title={t('queueEmpty')}
              hint={t('supervisorWaitingHint')}
              live
              testId="supervisor-nobody-waiting"
            />
          ) : (
            <ol className="supervisor-waiting">
              {board.waiting.map((call) => (
                <li key={call.callId} data-testid="supervisor-wait" data-call={call.callId}>
                  <p className="supervisor-guest">{guestOf(call)}</p>
                  <p>
                    <CallFacts call={call} /> · {t('supervisorWaited')}{' '}
                    <WaitClock since={call.since} clockOffsetMs={clockOffsetMs} />
                  </p>
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>
    </>
  );
}

/**
 * The supervisor view (`/console/supervisor`, issue 19 item 5): for the company's admins, every
 * member with their state and the calls they are in — the guest, its category, how long, on
 * hold or not — and the guests waiting. It follows the same pushed notices as the wallboard
 * (useWallboard.ts); the durations count up here every second, silently for screen readers.
 */
export function SupervisorPage() {
  return (
    <LivePage
      name="supervisor"
      title={t('supervisorTitle')}
      loading={t('supervisorLoading')}
      live={useSupervisor()}
    >
      {({ board, clockOffsetMs }) => <Floor board={board} clockOffsetMs={clockOffsetMs} />}
    </LivePage>
  );
}
