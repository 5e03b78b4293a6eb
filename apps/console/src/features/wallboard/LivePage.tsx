import type { ReactNode } from 'react';
import { intlLocale, t } from '../../i18n/messages.ts';
import { LoadStatus } from '../admin/LoadGate.tsx';
import type { LiveView } from './useWallboard.ts';

const clockTime = (iso: string) => new Date(iso).toLocaleTimeString(intlLocale());

type Ready<Board> = Extract<LiveView<Board>, { state: 'ready' }>;

/**
 * A live report's page (the wallboard, the supervisor view): its title and when the API made
 * what it shows, `announcement` for screen readers, a banner while a refresh fails over the last
 * answer, and the board once it came (`children`) — "loading" or the failure with a Retry before.
 */
export function LivePage<Board extends { at: string }>(props: {
  name: string;
  title: string;
  loading: string;
  live: { view: LiveView<Board>; retry: () => void };
  announcement?: (ready: Ready<Board>) => ReactNode;
  children: (ready: Ready<Board>) => ReactNode;
}) {
  const { name, live } = props;
  const { view } = live;
  const ready = view.state === 'ready' ? view : null;
  return (
    <section className={`wallboard ${name}`} aria-labelledby={`${name}-title`} data-testid={name}>
      <header className="wallboard-header">
        <h2 id={`${name}-title`}>{props.title}</h2>
        {ready && (
          <p className="wallboard-note">
            {t('wallboardUpdated', { time: clockTime(ready.board.at) })}
          </p>
        )}
      </header>
      {props.announcement && (
        <p role="status" className="visually-hidden" data-testid={`${name}-announcement`}>
          {ready && props.announcement(ready)}
        </p>
      )}
      {ready?.failure && (
        <p role="alert" className="banner">
          {t('wallboardStale', { time: clockTime(ready.board.at), reason: ready.failure })}
        </p>
      )}
      {ready ? (
        props.children(ready)
      ) : (
        <LoadStatus
          loading={props.loading}
          failure={view.state === 'failed' ? view.message : null}
          onRetry={live.retry}
        />
      )}
    </section>
  );
}
