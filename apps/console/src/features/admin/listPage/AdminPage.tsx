import { useId, type ReactNode } from 'react';
import { t } from '../../../i18n/messages.ts';
import { LoadStatus } from '../LoadGate.tsx';
import { SaveSummary } from '../SaveSummary.tsx';
import type { Outcome, ResourceView } from './useAdminResource.ts';
import './lists.css';

/**
 * The frame of an admin page that edits one of the company's lists (staff, categories, block
 * list, …): its heading and introduction, how the last change went, and the page's content
 * once its data is loaded (`children` gets the data).
 */
export function AdminPage<T>(props: {
  title: string;
  intro: ReactNode;
  /** The page's data and its last change's outcome (`useAdminResource`). */
  resource: {
    view: ResourceView<T>;
    outcome: Outcome;
    reloadAfterStale: () => Promise<void>;
    setOutcome: (outcome: Outcome) => void;
  };
  /** Shown whatever the data's state, above it (a one-time password just made). */
  notice?: ReactNode;
  children: (data: T) => ReactNode;
  testId: string;
}) {
  const id = useId();
  const { view, outcome } = props.resource;
  const reload = () => void props.resource.reloadAfterStale();
  return (
    <section className="admin-page" aria-labelledby={`${id}-title`} data-testid={props.testId}>
      <header className="admin-page-header">
        <h2 id={`${id}-title`}>{props.title}</h2>
        <div className="help">{props.intro}</div>
      </header>
      {/* Always present, so a screen reader hears what each change did. */}
      <div aria-live="polite" className="outcome-live">
        {outcome.kind === 'done' && (
          <p className="saved" data-testid="outcome">
            {outcome.message}
          </p>
        )}
      </div>
      {(outcome.kind === 'stale' || outcome.kind === 'failed') && (
        <SaveSummary
          status={outcome}
          onUndo={() => undefined}
          onReload={reload}
          onDismiss={() => props.resource.setOutcome({ kind: 'idle' })}
        />
      )}
      {props.notice}
      {view.state !== 'ready' && (
        <LoadStatus
          loading={t('loading')}
          failure={view.state === 'failed' ? t('listLoadFailed', { reason: view.message }) : null}
          onRetry={reload}
        />
      )}
      {view.state === 'ready' && props.children(view.data)}
    </section>
  );
}
