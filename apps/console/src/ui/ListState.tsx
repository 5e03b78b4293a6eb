import type { ReactNode } from 'react';
import { t } from '../i18n/messages.ts';
import './states.css';

/*
 * The three states a list of the console shows besides its rows, the same on every page (issue
 * 19): loading, empty, and failed with a Retry.
 */

/**
 * A list on its way: a spinner and what is loading, announced once (a busy status); `rows`
 * placeholder lines keep the shape of a list that is about to fill, so the page does not jump.
 */
export function LoadingState(props: {
  label: string;
  rows?: number;
  testId?: string;
  className?: string;
}) {
  return (
    <div
      className={['list-state', props.className].filter(Boolean).join(' ')}
      role="status"
      aria-busy="true"
      data-testid={props.testId}
    >
      <span className="spinner" aria-hidden="true" />
      <span>{props.label}</span>
      {Array.from({ length: props.rows ?? 0 }, (_, row) => (
        <div key={row} className="skeleton" aria-hidden="true" />
      ))}
    </div>
  );
}

/**
 * Nothing to list: said plainly, with what to do next (`hint`, `action`); `live` when it can
 * replace rows while the page is open (the last waiting guest gone), so it is heard.
 */
export function EmptyState(props: {
  title: string;
  hint?: ReactNode;
  action?: ReactNode;
  live?: boolean;
  testId?: string;
}) {
  return (
    <div
      className="list-state list-empty"
      data-testid={props.testId}
      {...(props.live ? { role: 'status', 'aria-live': 'polite' as const } : {})}
    >
      <p className="list-state-title">{props.title}</p>
      {props.hint && <p className="list-state-hint">{props.hint}</p>}
      {props.action}
    </div>
  );
}

/** The list did not come: why, and a Retry. */
export function ErrorState(props: { message: string; onRetry: () => void; className?: string }) {
  return (
    <div
      role="alert"
      className={['banner', 'list-state-error', props.className].filter(Boolean).join(' ')}
    >
      <p>{props.message}</p>
      <button type="button" className="secondary" onClick={props.onRetry}>
        {t('retry')}
      </button>
    </div>
  );
}
