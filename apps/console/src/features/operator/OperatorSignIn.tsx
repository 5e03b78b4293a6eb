import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { adminRoutes, ApiRequestError, type OperatorLogin } from '@frontdesk/protocol';
import { useServices } from '../../app/servicesContext.ts';
import { t } from '../../i18n/messages.ts';

/** The sign-in's refusal in words: wrong login, too many attempts, or no server. */
function signInFailure(error: unknown): string {
  const status = error instanceof ApiRequestError ? error.status : undefined;
  if (status === 429) return t('signInRateLimited');
  if (status === 0) return t('signInUnreachable');
  return t('signInFailed');
}

/**
 * The operator's own sign-in (`POST /api/operator/login`), worded and placed apart from the staff
 * sign-in so nobody types a company login here or an operator's at the console. `notice` says why
 * the operator is back here (the session ended).
 */
export function OperatorSignIn(props: {
  notice: string | null;
  onSignedIn: (login: OperatorLogin) => void;
}) {
  const { api } = useServices();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const shown = error ?? props.notice;
  const alertRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (shown) alertRef.current?.focus();
  }, [shown]);

  const signIn = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const { data } = await api(adminRoutes.operatorLogin, {
        body: { email: String(form.get('email')), password: String(form.get('password')) },
      });
      props.onSignedIn(data);
    } catch (failure) {
      setError(signInFailure(failure));
      setBusy(false);
    }
  };

  return (
    <main className="page operator-sign-in" data-testid="operator-sign-in">
      <h1>{t('operatorTitle')}</h1>
      <form
        className="card"
        aria-labelledby="operator-sign-in-title"
        aria-busy={busy}
        onSubmit={(event) => void signIn(event)}
      >
        <h2 id="operator-sign-in-title">{t('operatorSignInTitle')}</h2>
        <p>{t('operatorSignInHint')}</p>
        {shown && (
          <p role="alert" tabIndex={-1} ref={alertRef}>
            {shown}
          </p>
        )}
        <label>
          {t('email')}
          <input name="email" type="email" autoComplete="username" required disabled={busy} />
        </label>
        <label>
          {t('password')}
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            required
            disabled={busy}
          />
        </label>
        <button type="submit" disabled={busy}>
          {busy ? t('signingIn') : t('signIn')}
        </button>
      </form>
      <p>
        <Link to="/">{t('operatorStaffLink')}</Link>
      </p>
    </main>
  );
}
