import type { AgentState, Wallboard } from '@frontdesk/protocol';
import { intlLocale, t } from '../../i18n/messages.ts';
import { LivePage } from './LivePage.tsx';
import { useWallboard } from './useWallboard.ts';
import { WaitClock } from './WaitClock.tsx';
import './wallboard.css';

const STATES: readonly AgentState[] = ['available', 'inCall', 'away', 'offline'];

const percent = {
  format: (value: number) =>
    new Intl.NumberFormat(intlLocale(), { style: 'percent', maximumFractionDigits: 0 }).format(
      value,
    ),
};

/** The oldest of the waiting calls' starts: the board's longest wait counts up from it. */
function oldestWait(board: Wallboard): string | null {
  return board.categories.reduce<string | null>(
    (oldest, row) =>
      row.oldestSince !== null && (oldest === null || row.oldestSince < oldest)
        ? row.oldestSince
        : oldest,
    null,
  );
}

function ServiceLevel({ today }: { today: Wallboard['today'] }) {
  // The API's cut-offs: the reports' defaults (REPORT_CUT_OFF_DEFAULTS).
  const { ratio, thresholdSeconds, target } = today.serviceLevel;
  const rule = t('wallboardServiceLevelRule', {
    seconds: String(thresholdSeconds),
    target: percent.format(target),
  });
  if (ratio === null) {
    return (
      <div className="wallboard-figure">
        <dt>{t('wallboardServiceLevel')}</dt>
        <dd className="wallboard-number" data-testid="wallboard-service-level">
          –
        </dd>
        <dd className="wallboard-note">{t('wallboardServiceLevelNone')}</dd>
      </div>
    );
  }
  const onTarget = ratio >= target;
  return (
    <div className="wallboard-figure" data-on-target={onTarget}>
      <dt id="wallboard-service-level-label">{t('wallboardServiceLevel')}</dt>
      <dd className="wallboard-number" data-testid="wallboard-service-level">
        {percent.format(ratio)}
      </dd>
      <dd className="wallboard-note">
        <meter
          min={0}
          max={1}
          low={target}
          optimum={1}
          value={ratio}
          aria-labelledby="wallboard-service-level-label"
        />
        {rule} · <strong>{t(onTarget ? 'wallboardOnTarget' : 'wallboardBelowTarget')}</strong>
      </dd>
    </div>
  );
}

function Board({ board, clockOffsetMs }: { board: Wallboard; clockOffsetMs: number }) {
  const byState = new Map(
    STATES.map((state) => [state, board.agents.filter((a) => a.state === state)]),
  );
  return (
    <>
      <section className="wallboard-now" aria-label={t('wallboardNow')}>
        <div className="wallboard-tile">
          <h3>{t('wallboardWaiting')}</h3>
          <p className="wallboard-big" data-testid="wallboard-waiting">
            {board.waiting}
          </p>
        </div>
        <div className="wallboard-tile">
          <h3>{t('wallboardLongestWait')}</h3>
          <p className="wallboard-big" data-testid="wallboard-longest-wait">
            <WaitClock since={oldestWait(board)} clockOffsetMs={clockOffsetMs} />
          </p>
        </div>
      </section>

      <section className="wallboard-card" aria-labelledby="wallboard-categories">
        <h3 id="wallboard-categories">{t('wallboardCategories')}</h3>
        <table className="wallboard-table">
          <thead>
            <tr>
              <th scope="col">{t('wallboardCategory')}</th>
              <th scope="col">{t('wallboardWaiting')}</th>
              <th scope="col">{t('wallboardLongestWait')}</th>
            </tr>
          </thead>
          <tbody>
            {board.categories.map((row) => (
              <tr key={row.id ?? 'none'} data-waiting={row.waiting > 0}>
                <th scope="row">{row.name ?? t('wallboardNoCategory')}</th>
                <td>{row.waiting}</td>
                <td>
                  <WaitClock since={row.oldestSince} clockOffsetMs={clockOffsetMs} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section className="wallboard-card" aria-labelledby="wallboard-team">
        <h3 id="wallboard-team">{t('wallboardTeam')}</h3>
        <ul className="wallboard-states">
          {STATES.map((state) => {
            const members = byState.get(state) ?? [];
            return (
              <li key={state} data-state={state} data-testid={`wallboard-state-${state}`}>
                <h4>
                  <span className="wallboard-state-count">{members.length}</span>{' '}
                  {t(`agentState_${state}`)}
                </h4>
                <p>{members.map((member) => member.name).join(', ') || t('wallboardNobody')}</p>
              </li>
            );
          })}
        </ul>
      </section>

      <section className="wallboard-card" aria-labelledby="wallboard-today">
        <h3 id="wallboard-today">{t('wallboardToday')}</h3>
        <dl className="wallboard-today">
          <div className="wallboard-figure">
            <dt>{t('wallboardAnswered')}</dt>
            <dd className="wallboard-number" data-testid="wallboard-answered">
              {board.today.answered}
            </dd>
          </div>
          <div className="wallboard-figure">
            <dt>{t('wallboardAbandoned')}</dt>
            <dd className="wallboard-number" data-testid="wallboard-abandoned">
              {board.today.abandoned}
            </dd>
          </div>
          <ServiceLevel today={board.today} />
        </dl>
      </section>
    </>
  );
}

/**
 * The live wallboard (`/console/reports/wallboard`, issue 17): guests waiting now and the longest
 * wait, by category; the team by state; today's answered, abandoned and service level. It follows
 * the API's pushed notices, not a timer (useWallboard.ts); waits count up here every second.
 * Screen readers hear only the counts when they change, never the ticking clocks.
 */
export function WallboardPage() {
  return (
    <LivePage
      name="wallboard"
      title={t('wallboardTitle')}
      loading={t('wallboardLoading')}
      live={useWallboard()}
      announcement={({ board }) =>
        t('wallboardAnnouncement', {
          waiting: String(board.waiting),
          available: String(board.agents.filter((agent) => agent.state === 'available').length),
        })
      }
    >
      {({ board, clockOffsetMs }) => <Board board={board} clockOffsetMs={clockOffsetMs} />}
    </LivePage>
  );
}
