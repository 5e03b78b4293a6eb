import { useState } from 'react';
import type { OperatorLogin } from '@frontdesk/protocol';
import { t } from '../../i18n/messages.ts';
import { OperatorSignIn } from './OperatorSignIn.tsx';
import { OperatorWorkspace } from './OperatorWorkspace.tsx';
import './operator.css';

/**
 * `/console/operator`: the platform operator's sign-in, then the companies and "New company".
 *
 * SECURITY: the operator's token lives in this component's state only: not in sessionStorage or
 * localStorage, so no script of the origin can read it once the page is gone and the browser's
 * session restore never writes it to disk. It creates companies on the whole installation, so a
 * reload costing a new sign-in (as a reload does for staff, decision 0018) is the cheaper risk.
 * Signing out revokes it on the server.
 */
export function OperatorPage() {
  const [session, setSession] = useState<OperatorLogin | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  return (
    <>
      <title>{t('operatorTitle')}</title>
      {session ? (
        <OperatorWorkspace
          session={session}
          onSignedOut={(message) => {
            setSession(null);
            setNotice(message);
          }}
        />
      ) : (
        <OperatorSignIn
          notice={notice}
          onSignedIn={(login) => {
            setNotice(null);
            setSession(login);
          }}
        />
      )}
    </>
  );
}
