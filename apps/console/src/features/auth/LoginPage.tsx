import { useEffect, useRef, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { t } from '../../i18n/messages.ts';
import { HealthPanel } from '../health/HealthPanel.tsx';
import { useHealth } from '../health/useHealth.ts';
import { signInSubmitted } from './authSlice.ts';

/** The console's first screen: sign-in, with the services' health beside it. */
export function LoginPage() {
  const dispatch = useAppDispatch();
  const { status, error } = useAppSelector((state) => state.auth);
  const health = useHealth();
  const busy = status !== 'signedOut';
  const errorRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [error]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    dispatch(
      signInSubmitted({ email: String(form.get('email')), password: String(form.get('password')) }),
    );
  };

  return (
    <main className="page" data-testid="console-page" data-service={health.state}>
      <h1>{t('appTitle')}</h1>
      <form className="card" aria-labelledby="sign-in-title" onSubmit={submit} aria-busy={busy}>
        <h2 id="sign-in-title">{t('signInTitle')}</h2>
        {error && (
          <p role="alert" tabIndex={-1} ref={errorRef} id="sign-in-error">
            {error}
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
      <HealthPanel view={health} />
    </main>
  );
}
