import {
  Component,
  useEffect,
  useRef,
  type ContextType,
  type ErrorInfo,
  type ReactNode,
} from 'react';
import { ReactReduxContext } from 'react-redux';
import { reportCrash } from './bugReport.ts';
import { useT } from '../i18n/useT.ts';
import type { AppStore } from './store.ts';

/** Whether the crash's call-bug report is on its way, filed, or could not be. */
export type CrashReport = 'sending' | 'sent' | 'unsent';

/**
 * What the guest sees when a screen crashed (issue 18): what happened in plain words, whether the
 * call-bug report with the guest's log and state reached us, and a reload. The heading takes
 * focus so screen readers announce it.
 */
export function CrashPage({ report }: { report: CrashReport }) {
  const t = useT();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="notice" data-testid="stage-crashed" aria-labelledby="crash-title">
      <h1 id="crash-title" ref={heading} tabIndex={-1}>
        {t('crashTitle')}
      </h1>
      <p>{t('crashBody')}</p>
      <p role="status" data-testid="crash-report">
        {t(
          report === 'sending'
            ? 'crashReporting'
            : report === 'sent'
              ? 'crashReported'
              : 'crashNotReported',
        )}
      </p>
      <div className="stage-actions">
        <button type="button" className="button-primary" onClick={() => window.location.reload()}>
          {t('crashReload')}
        </button>
      </div>
    </section>
  );
}

type State = { crashed: boolean; report: CrashReport };

/**
 * Catches what a screen throws while it renders (a bug, or the call code failing to load) and
 * shows {@link CrashPage} in its place instead of a white page, filing one call-bug report.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  static override contextType = ReactReduxContext;
  declare context: ContextType<typeof ReactReduxContext>;
  override state: State = { crashed: false, report: 'sending' };

  static getDerivedStateFromError(): Partial<State> {
    return { crashed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('the page crashed', error, info.componentStack);
    const store = this.context?.store as AppStore | undefined;
    if (!store) return this.setState({ report: 'unsent' });
    const crash =
      error instanceof Error
        ? { message: `${error.name}: ${error.message}`, stack: error.stack }
        : { message: String(error) };
    store
      .dispatch(reportCrash({ ...crash, componentStack: info.componentStack ?? undefined }))
      .unwrap()
      .then(
        (sent) => this.setState({ report: sent ? 'sent' : 'unsent' }),
        () => this.setState({ report: 'unsent' }),
      );
  }

  override render() {
    return this.state.crashed ? <CrashPage report={this.state.report} /> : this.props.children;
  }
}
