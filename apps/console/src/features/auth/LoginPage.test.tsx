import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiRequestError } from '@frontdesk/protocol';
import { adaLogin, answer, fakeApi, refusal, renderWithState } from '../../test/render.tsx';
import { LoginPage } from './LoginPage.tsx';

afterEach(cleanup);

const up = { status: 'up' as const };
const health = {
  body: {
    status: 'down',
    dependencies: { database: up, xmpp: up, janus: { status: 'down', error: 'timeout' } },
  },
};

function signIn(email: string, password: string) {
  fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('sign-in', () => {
  it('says so, and takes the focus, when the password is wrong', async () => {
    const { api, requests } = fakeApi({
      'GET /health': health,
      'POST /auth/login': refusal(401, 'invalid_credentials'),
    });
    renderWithState(<LoginPage />, {}, { api });
    signIn('ada@frontdesk.demo', 'nope');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('The e-mail or the password is wrong.');
    expect(document.activeElement).toBe(alert);
    expect(requests.find((r) => r.route === 'POST /auth/login')?.body).toEqual({
      email: 'ada@frontdesk.demo',
      password: 'nope',
    });
  });

  it('shows progress, then says why the workspace could not load', async () => {
    const { api, requests } = fakeApi({
      'GET /health': health,
      'POST /auth/login': answer({ ...adaLogin, mustChangePassword: false }),
      'GET /company/12': refusal(0, 'network', 'The server could not be reached.'),
      'GET /config': refusal(0, 'network', 'The server could not be reached.'),
    });
    const { store } = renderWithState(<LoginPage />, {}, { api });
    signIn('ada@frontdesk.demo', 'frontdesk-demo');
    expect(screen.getByRole('button', { name: 'Signing in…' })).toHaveProperty('disabled', true);
    await waitFor(() => expect(requests.map((r) => r.route)).toContain('GET /company/12'));
    await waitFor(() => expect(store.getState().auth.status).toBe('signedOut'));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Your workspace could not be loaded: The server could not be reached.',
    );
  });

  it('shows which service a call needs is down', async () => {
    const { api } = fakeApi({ 'GET /health': health });
    renderWithState(<LoginPage />, {}, { api });
    expect(screen.getByRole('status').textContent).toBe('Checking the services…');
    const janus = await screen.findByRole('row', { name: /Media server/ });
    expect(janus.textContent).toBe('Media serverDown: timeout');
    expect(screen.getByRole('row', { name: /Database/ }).textContent).toBe('DatabaseRunning');
  });
});

describe('choosing a password after a one-time password', () => {
  const oneTime = 'Xq3-one-time-password-7';
  const mustChange = answer({ mustChangePassword: true, expiresAt: '2099-01-08T00:00:00.000Z' });

  function choose(newPassword: string, repeated = newPassword) {
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: newPassword } });
    fireEvent.change(screen.getByLabelText('Repeat the new password'), {
      target: { value: repeated },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save and sign in' }));
  }

  it('asks for a new password, typed twice the same, and sends it with the one-time one', async () => {
    const { api, requests } = fakeApi({
      'GET /health': health,
      'POST /auth/login': mustChange,
      'POST /auth/password': answer({ ...adaLogin, mustChangePassword: false }),
      'GET /company/12': refusal(0, 'network', 'The server could not be reached.'),
      'GET /config': refusal(0, 'network', 'The server could not be reached.'),
    });
    const { store } = renderWithState(<LoginPage />, {}, { api });
    signIn('eve@example.com', oneTime);
    expect(await screen.findByRole('heading', { name: 'Choose your password' })).toBeTruthy();
    // No session yet: nothing else of the console is open.
    expect(store.getState().auth.login).toBeNull();

    choose('my own passphrase', 'my own passphrase!');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The two passwords differ: type the same one twice.',
    );
    expect(requests.map((r) => r.route)).not.toContain('POST /auth/password');

    choose('my own passphrase');
    await waitFor(() => expect(requests.map((r) => r.route)).toContain('POST /auth/password'));
    expect(requests.find((r) => r.route === 'POST /auth/password')?.body).toEqual({
      email: 'eve@example.com',
      currentPassword: oneTime,
      newPassword: 'my own passphrase',
    });
    // Signed in: the workspace of the member's company loads.
    await waitFor(() => expect(requests.map((r) => r.route)).toContain('GET /company/12'));
  });

  it('says why the API refused the new password, and lets the member choose another', async () => {
    const { api } = fakeApi({
      'GET /health': health,
      'POST /auth/login': mustChange,
      'POST /auth/password': {
        refuse: new ApiRequestError(400, 'invalid_request', 'Invalid newPassword.', {
          newPassword: 'must be at least 12 characters',
        }),
      },
    });
    const { store } = renderWithState(<LoginPage />, {}, { api });
    signIn('eve@example.com', oneTime);
    await screen.findByLabelText('New password');
    choose('too short');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This password cannot be used: it must be at least 12 characters.',
    );
    expect(store.getState().auth.status).toBe('mustChangePassword');
    expect(screen.getByLabelText('New password')).toHaveProperty('disabled', false);
  });

  it('starts over when the one-time password has expired', async () => {
    const { api } = fakeApi({
      'GET /health': health,
      'POST /auth/login': refusal(401, 'one_time_password_expired'),
    });
    renderWithState(<LoginPage />, {}, { api });
    signIn('eve@example.com', oneTime);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This one-time password has expired: ask an admin for a new one.',
    );
    expect(screen.getByRole('heading', { name: 'Sign in' })).toBeTruthy();
  });
});
