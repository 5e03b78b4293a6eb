import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { LanguagePicker } from '../../i18n/LanguagePicker.tsx';
import { t } from '../../i18n/messages.ts';
import { HealthPanel } from '../health/HealthPanel.tsx';
import { useHealth } from '../health/useHealth.ts';
import { passwordChangeSubmitted, signedOut, signInSubmitted } from './authSlice.ts';

type Credentials = { email: string; password: string };

/**
 * The console's first screen: sign-in, with the services' health beside it; after a one-time
 * password (an invite or a reset), the member's own password is chosen here before anything else.
 */
export function LoginPage() {
  const dispatch = useAppDispatch();
  const { status, error } = useAppSelector((state) => state.auth);
  const health = useHealth();
  // The one-time password is sent again with the new one; kept in this page only, never the store.
  const credentials = useRef<Credentials | null>(null);
  const [mismatch, setMismatch] = useState(false);
  const choosing = status === 'mustChangePassword' || status === 'changingPassword';
  const busy = status !== 'signedOut' && status !== 'mustChangePassword';
  const shownError = mismatch ? t('passwordsDiffer') : error;
  const errorRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (shownError) errorRef.current?.focus();
  }, [shownError]);

  const signIn = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    credentials.current = {
      email: String(form.get('email')),
      password: String(form.get('password')),
    };
    dispatch(signInSubmitted(credentials.current));
  };

  const choosePassword = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const newPassword = String(form.get('newPassword'));
    const differ = newPassword !== String(form.get('repeatPassword'));
    setMismatch(differ);
    if (differ || !credentials.current) return;
    const { email, password } = credentials.current;
    dispatch(passwordChangeSubmitted({ email, currentPassword: password, newPassword }));
  };

  const alert = shownError && (
    <p role="alert" tabIndex={-1} ref={errorRef} id="sign-in-error">
      {shownError}
    </p>
  );

  return (
    <main className="page" data-testid="console-page" data-service={health.state}>
      <h1>{t('appTitle')}</h1>
      <LanguagePicker />
      {choosing ? (
        <form
          className="card"
          aria-labelledby="choose-password-title"
          onSubmit={choosePassword}
          aria-busy={busy}
        >
          <h2 id="choose-password-title">{t('choosePasswordTitle')}</h2>
          <p>{t('choosePasswordHint')}</p>
          {alert}
          <label>
            {t('newPassword')}
            <input
              name="newPassword"
              type="password"
              autoComplete="new-password"
              minLength={12}
              required
              disabled={busy}
            />
          </label>
          <label>
            {t('repeatPassword')}
            <input
              name="repeatPassword"
              type="password"
              autoComplete="new-password"
              required
              disabled={busy}
            />
          </label>
          <button type="submit" disabled={busy}>
            {busy ? t('savingPassword') : t('savePassword')}
          </button>
          <button type="button" disabled={busy} onClick={() => dispatch(signedOut())}>
            {t('cancel')}
          </button>
        </form>
      ) : (
        <form className="card" aria-labelledby="sign-in-title" onSubmit={signIn} aria-busy={busy}>
          <h2 id="sign-in-title">{t('signInTitle')}</h2>
          {alert}
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
      )}
      <HealthPanel view={health} />
    </main>
  );
}
