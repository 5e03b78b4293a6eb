import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { t } from '../../i18n/messages.ts';
import { ConfirmDialog } from '../../ui/Dialog.tsx';

/**
 * Asks before an admin page with unsaved changes is left: a link of the console (react-router's
 * blocker, answered in a ConfirmDialog where staying is the safe answer) or the tab itself (`beforeunload`). Addresses
 * for which `keepsDraft` answers true share the draft and need no asking.
 */
export function UnsavedChangesGuard(props: {
  unsaved: boolean;
  keepsDraft?: (pathname: string) => boolean;
}) {
  const { unsaved, keepsDraft } = props;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      unsaved &&
      currentLocation.pathname !== nextLocation.pathname &&
      !(keepsDraft?.(nextLocation.pathname) ?? false),
  );
  useEffect(() => {
    if (!unsaved) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [unsaved]);
  if (blocker.state !== 'blocked') return null;
  return (
    <ConfirmDialog
      title={t('leaveTitle')}
      description={t('leaveText')}
      confirmLabel={t('leave')}
      cancelLabel={t('stay')}
      danger
      onConfirm={() => blocker.proceed()}
      onCancel={() => blocker.reset()}
    />
  );
}
