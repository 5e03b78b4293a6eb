import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { signedOut } from '../features/auth/authSlice.ts';
import { AvailabilityPicker } from '../features/availability/AvailabilityPicker.tsx';
import { CallScreen } from '../features/call/CallScreen.tsx';
import { ChatPanel } from '../features/chat/ChatPanel.tsx';
import { DoctorPanel } from '../features/health/DoctorPanel.tsx';
import { HealthPanel } from '../features/health/HealthPanel.tsx';
import { useDoctor } from '../features/health/useDoctor.ts';
import { useHealth } from '../features/health/useHealth.ts';
import { QueuePanel } from '../features/queue/QueuePanel.tsx';
import { selectWaitingCount } from '../features/queue/queueSlice.ts';
import { t } from '../i18n/messages.ts';
import { useAppDispatch, useAppSelector } from './hooks.ts';
import { useCallAddress } from './useCallAddress.ts';

/**
 * Admins see the services' health too (the sign-in page shows it to everyone), and can run the
 * installation's self-test.
 */
function AdminPanel() {
  const health = useHealth();
  const doctor = useDoctor();
  return (
    <aside className="card" aria-label={t('adminTitle')} data-testid="admin-panel">
      <HealthPanel view={health} />
      <DoctorPanel view={doctor.view} onRun={doctor.run} />
    </aside>
  );
}

/** Asks for desktop notifications; a browser only asks in answer to a click. */
function NotificationsButton() {
  const supported = typeof Notification !== 'undefined';
  const [permission, setPermission] = useState(supported ? Notification.permission : 'denied');
  if (permission !== 'default') return null;
  return (
    <button
      type="button"
      className="secondary"
      onClick={() => void Notification.requestPermission().then(setPermission)}
    >
      {t('enableNotifications')}
    </button>
  );
}

/** The signed-in console: the queue or the call, the chat, and the agent's status. */
export function Workspace() {
  const dispatch = useAppDispatch();
  const user = useAppSelector((state) => state.auth.login?.user);
  const chat = useAppSelector((state) => state.chat);
  const phase = useAppSelector((state) => state.call.phase);
  const waiting = useAppSelector(selectWaitingCount);
  useCallAddress();

  // The tab's title carries the count, so a waiting guest shows from any other tab (issue 7).
  useEffect(() => {
    document.title = waiting > 0 ? `(${waiting}) ${t('appTitle')}` : t('appTitle');
  }, [waiting]);

  return (
    <div className="workspace" data-testid="workspace" data-chat={chat.status}>
      <header className="topbar">
        <h1>{t('appTitle')}</h1>
        <p>{user && t('signedInAs', { name: user.name })}</p>
        <AvailabilityPicker />
        <p role="status" aria-live="polite" data-testid="chat-status">
          {t(`chat_${chat.status}`)}
        </p>
        <NotificationsButton />
        {user?.role === 'admin' && <Link to="/reports">{t('reportsTitle')}</Link>}
        {user?.role === 'admin' && <Link to="/admin">{t('companySettings')}</Link>}
        <button type="button" className="secondary" onClick={() => dispatch(signedOut())}>
          {t('signOut')}
        </button>
      </header>
      {chat.error && (
        <p role="alert" className="banner">
          {chat.error}
        </p>
      )}
      <div className="columns">
        <main className="primary">{phase === 'idle' ? <QueuePanel /> : <CallScreen />}</main>
        <ChatPanel />
        {user?.role === 'admin' && <AdminPanel />}
      </div>
    </div>
  );
}
