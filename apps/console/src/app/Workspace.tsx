import { useEffect } from 'react';
import { Link } from 'react-router';
import { AvailabilityPicker } from '../features/availability/AvailabilityPicker.tsx';
import { BlockGuestButton } from '../features/call/BlockGuestButton.tsx';
import { CallChat } from '../features/call/CallChat.tsx';
import { CallScreen } from '../features/call/CallScreen.tsx';
import { RejoinNotice } from '../features/call/RejoinNotice.tsx';
import { GuestContextPanel } from '../features/guestContext/GuestContextPanel.tsx';
import { DoctorPanel } from '../features/health/DoctorPanel.tsx';
import { HealthPanel } from '../features/health/HealthPanel.tsx';
import { useDoctor } from '../features/health/useDoctor.ts';
import { useHealth } from '../features/health/useHealth.ts';
import { QueuePanel } from '../features/queue/QueuePanel.tsx';
import { selectWaitingCount } from '../features/queue/queueSlice.ts';
import { t } from '../i18n/messages.ts';
import { useAppSelector } from './hooks.ts';
import { UserMenu } from './UserMenu.tsx';
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

/** Between calls, the middle of the workspace says where a call will open. */
function NoCall() {
  return (
    <section className="no-call card" aria-labelledby="no-call-title" data-testid="no-call">
      <h2 id="no-call-title">{t('noCallTitle')}</h2>
      <p>{t('noCallHint')}</p>
    </section>
  );
}

/**
 * The signed-in console, laid out as agent workspaces are (issue 19 item 2): the queue on one
 * side, the call (and its chat) in the middle, the guest's details on the other side. A window
 * narrower than three columns puts the call first and folds the guest's details into a panel;
 * global.css holds the grid.
 */
export function Workspace() {
  const user = useAppSelector((state) => state.auth.login?.user);
  const chat = useAppSelector((state) => state.chat);
  const call = useAppSelector((state) => state.call.call);
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
        <AvailabilityPicker />
        <p role="status" aria-live="polite" className="chat-status" data-testid="chat-status">
          <span className="chat-status-text">{t(`chat_${chat.status}`)}</span>
        </p>
        {user?.role === 'admin' && (
          <nav className="topbar-links" aria-label={t('adminLinks')}>
            <Link to="/supervisor">{t('supervisorTitle')}</Link>
            <Link to="/reports">{t('reportsTitle')}</Link>
            <Link to="/admin">{t('companySettings')}</Link>
          </nav>
        )}
        <UserMenu />
      </header>
      <RejoinNotice />
      {chat.error && (
        <p role="alert" className="banner">
          {chat.error}
        </p>
      )}
      <div
        className="desk"
        data-mode={call ? 'call' : 'idle'}
        data-side={call || user?.role === 'admin' ? 'shown' : 'none'}
      >
        <div className="desk-queue">
          <QueuePanel />
        </div>
        <main className="desk-main">
          {call ? <CallScreen /> : <NoCall />}
          <CallChat />
        </main>
        <div className="desk-side">
          {call && (
            <GuestContextPanel
              callId={call.callId}
              guestNick={call.guestJabberUsername}
              actions={user?.role === 'admin' && <BlockGuestButton callId={call.callId} />}
            />
          )}
          {user?.role === 'admin' && <AdminPanel />}
        </div>
      </div>
    </div>
  );
}
