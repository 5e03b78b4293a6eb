import type { ChatSession } from '@frontdesk/chat';
import { ApiRequestError } from '@frontdesk/protocol';
import { describe, expect, it, vi } from 'vitest';
import { Connections } from '../../app/connections.ts';
import type { ConsoleServices } from '../../app/services.ts';
import { createStore } from '../../app/store.ts';
import {
  adaLogin,
  answer,
  clockCompany,
  fakeApi,
  refusal,
  signedIn,
  type FakeAnswer,
} from '../../test/render.tsx';
import { resumeRequested, signInSucceeded } from './authSlice.ts';

/** A store over a fake API that loads the workspace and answers the refresh with `refresh`. */
function consoleWith(refresh: FakeAnswer) {
  const { api, requests } = fakeApi({
    'GET /company/12': answer(clockCompany),
    'GET /config': answer(signedIn().auth.config),
    // What the signed-in workspace asks besides; not the subject here.
    'PUT /staff/me/availability': { body: undefined },
    'GET /staff': answer([]),
    'POST /auth/refresh': refresh,
  });
  const connections = new Connections();
  // The chat session, as far as the renewal deals with it.
  const setToken = vi.fn();
  connections.chat = { setToken, close: async () => undefined } as unknown as ChatSession;
  const services: ConsoleServices = {
    api,
    downloadFile: () => new Promise(() => undefined),
    loadChat: () => new Promise(() => undefined),
    loadMedia: () => new Promise(() => undefined),
    connections,
    ringer: { ring: () => undefined },
  };
  return { store: createStore(services, {}), requests, setToken };
}

/** A login whose access token is a minute from expiring: it is renewed at once. */
const expiringLogin = () => ({
  ...adaLogin,
  accessTokenExpiresAt: new Date(Date.now() + 60_000).toISOString(),
});

describe("renewing the agent's access token", () => {
  it('exchanges the refresh cookie before the access token expires', async () => {
    const renewed = {
      ...adaLogin,
      access_token: 'token-ada-2',
      accessTokenExpiresAt: new Date(Date.now() + 600_000).toISOString(),
      xmpp: { jid: adaLogin.xmpp.jid, password: 'xmpp-token-ada-2' },
    };
    const { store, requests, setToken } = consoleWith(answer(renewed));
    store.dispatch(signInSucceeded(expiringLogin()));
    await vi.waitFor(() => expect(store.getState().auth.login?.access_token).toBe('token-ada-2'));
    // The chat's next reconnection signs in with the renewed token.
    expect(store.getState().auth.login?.xmpp.password).toBe('xmpp-token-ada-2');
    expect(setToken).toHaveBeenCalledWith('xmpp-token-ada-2');
    // The token is the httpOnly cookie, which the page never sees: the body is empty.
    expect(requests.find((r) => r.route === 'POST /auth/refresh')?.body).toEqual({});
    expect(JSON.stringify(store.getState())).not.toMatch(/refresh/i);
  });

  it('signs out with a reason when the API says the session has ended', async () => {
    const { store } = consoleWith(refusal(401, 'session_ended'));
    store.dispatch(signInSucceeded(expiringLogin()));
    await vi.waitFor(() => expect(store.getState().auth.status).toBe('signedOut'));
    expect(store.getState().auth.login).toBeNull();
    expect(store.getState().auth.error).toBe('Your session has ended: sign in again.');
  });

  it('keeps the session while the API cannot be reached', async () => {
    const { store } = consoleWith({ refuse: new ApiRequestError(0, 'network', 'offline') });
    store.dispatch(signInSucceeded(expiringLogin()));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(store.getState().auth.login?.access_token).toBe(adaLogin.access_token);
  });
});

describe('resuming after a reload or in a new tab', () => {
  it('signs in from the refresh cookie and loads the workspace', async () => {
    const { store } = consoleWith(answer(adaLogin));
    store.dispatch(resumeRequested());
    expect(store.getState().auth.status).toBe('resuming');
    await vi.waitFor(() => expect(store.getState().auth.status).toBe('ready'));
    expect(store.getState().auth.login?.user.name).toBe('Ada Agent');
  });

  it('shows the sign-in page, with no error, when there is nothing to resume', async () => {
    const { store } = consoleWith(refusal(401, 'session_ended'));
    store.dispatch(resumeRequested());
    await vi.waitFor(() => expect(store.getState().auth.status).toBe('signedOut'));
    expect(store.getState().auth.error).toBeNull();
  });

  it('says so when the API cannot be reached', async () => {
    const { store } = consoleWith({ refuse: new ApiRequestError(0, 'network', 'offline') });
    store.dispatch(resumeRequested());
    await vi.waitFor(() => expect(store.getState().auth.status).toBe('signedOut'));
    expect(store.getState().auth.error).toMatch(/reach/i);
  });
});
