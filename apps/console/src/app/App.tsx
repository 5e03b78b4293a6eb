import { LoginPage } from '../features/auth/LoginPage.tsx';
import { t } from '../i18n/messages.ts';
import { useAppSelector } from './hooks.ts';
import { Workspace } from './Workspace.tsx';

/** Sign-in until the workspace (company, chat and media servers) is known, then the console. */
export function App() {
  const status = useAppSelector((state) => state.auth.status);
  if (status === 'ready') return <Workspace />;
  if (status === 'loadingWorkspace') {
    return (
      <main className="page" data-testid="console-loading">
        <p role="status" aria-live="polite">
          {t('loading')}
        </p>
      </main>
    );
  }
  return <LoginPage />;
}
