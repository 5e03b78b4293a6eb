import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { LoginPage } from '../features/auth/LoginPage.tsx';
import { t } from '../i18n/messages.ts';
import { LoadingState } from '../ui/ListState.tsx';
import { useAppSelector } from './hooks.ts';
import { useNotificationFocus } from './notificationFocus.ts';

/**
 * Sign-in until the workspace (company, chat and media servers) is known, then the page the
 * address names: signing in keeps the address, so a reloaded or shared link lands where it
 * pointed (decision 0018); a reload or a new tab stays signed in (decision 0024).
 */
export function App() {
  const status = useAppSelector((state) => state.auth.status);
  // A click on a desktop notification, from any page of the console (issue 19 item 3).
  useNotificationFocus();
  if (status === 'ready') {
    return (
      <Suspense fallback={<Loading />}>
        <Outlet />
      </Suspense>
    );
  }
  // A reloaded page or a new tab first asks whether its refresh cookie still signs in (0024).
  if (status === 'loadingWorkspace' || status === 'resuming') return <Loading />;
  return <LoginPage />;
}

function Loading() {
  return (
    <main className="page" data-testid="console-loading">
      <LoadingState label={t('loading')} />
    </main>
  );
}
