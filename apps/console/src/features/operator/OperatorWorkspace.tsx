import { useCallback, useEffect, useMemo, useState } from 'react';
import type { OperatorCompany, OperatorCreatedCompany, OperatorLogin } from '@frontdesk/protocol';
import { describeError } from '../../app/errors.ts';
import { useServices } from '../../app/servicesContext.ts';
import { t } from '../../i18n/messages.ts';
import { CompanyList, type CompaniesView } from './CompanyList.tsx';
import { CreatedCompanyNotice } from './CreatedCompanyNotice.tsx';
import { NewCompanyForm } from './NewCompanyForm.tsx';
import { formatInstant, operatorRequests, sessionEnded } from './operatorApi.ts';

/**
 * The signed-in operator's page: who is signed in and the way out, "New company" (or, once one is
 * created, its admin's one-time password), and every company. A refused token (401) anywhere
 * ends the session: `onSignedOut` takes the operator back to the sign-in with why.
 */
export function OperatorWorkspace(props: {
  session: OperatorLogin;
  onSignedOut: (why: string | null) => void;
}) {
  const { session, onSignedOut } = props;
  const { api } = useServices();
  const requests = useMemo(() => operatorRequests(api, session), [api, session]);
  const [view, setView] = useState<CompaniesView>({ companies: null, loading: true, error: null });
  const [created, setCreated] = useState<OperatorCreatedCompany | null>(null);
  const [signingOut, setSigningOut] = useState(false);

  const endSession = useCallback(() => onSignedOut(t('operatorSessionEnded')), [onSignedOut]);

  /** Asks for the list; the one shown stays (marked busy) until the new one arrives. */
  const fetchCompanies = useCallback(
    (isCurrent: () => boolean = () => true) =>
      requests.companies().then(
        (companies: OperatorCompany[]) => {
          if (isCurrent()) setView({ companies, loading: false, error: null });
        },
        (error: unknown) => {
          if (!isCurrent()) return;
          if (sessionEnded(error)) endSession();
          else setView((before) => ({ ...before, loading: false, error: describeError(error) }));
        },
      ),
    [requests, endSession],
  );

  useEffect(() => {
    let current = true;
    void fetchCompanies(() => current);
    return () => {
      current = false;
    };
  }, [fetchCompanies]);

  const reload = () => {
    setView((before) => ({ ...before, loading: true, error: null }));
    void fetchCompanies();
  };

  const signOut = async () => {
    setSigningOut(true);
    try {
      await requests.signOut();
      onSignedOut(null);
    } catch (error) {
      // The page forgets the token either way; a 401 means the server had already ended it.
      onSignedOut(
        sessionEnded(error)
          ? null
          : t('operatorSignOutUnconfirmed', {
              reason: describeError(error),
              expires: formatInstant(session.expiresAt),
            }),
      );
    }
  };

  return (
    <div className="operator" data-testid="operator-workspace">
      <header className="topbar operator-topbar">
        <h1>{t('operatorTitle')}</h1>
        <p>
          {t('operatorSignedInAs', { name: session.operator.name, email: session.operator.email })}
        </p>
        <button
          type="button"
          className="secondary"
          disabled={signingOut}
          onClick={() => void signOut()}
        >
          {signingOut ? t('operatorSigningOut') : t('signOut')}
        </button>
      </header>
      <main className="operator-main">
        {created ? (
          <CreatedCompanyNotice created={created} onDone={() => setCreated(null)} />
        ) : (
          <NewCompanyForm
            requests={requests}
            onSessionEnded={endSession}
            onCreated={(company) => {
              setCreated(company);
              reload();
            }}
          />
        )}
        <CompanyList view={view} onRetry={reload} />
      </main>
    </div>
  );
}
