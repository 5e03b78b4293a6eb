import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
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
      'POST /auth/login': answer(adaLogin),
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
