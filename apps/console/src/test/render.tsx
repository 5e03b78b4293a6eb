import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import {
  companyDetailsSchema,
  type ClaimedCall,
  type RoomAccess,
  type StaffLogin,
} from '@frontdesk/protocol';
import { Connections } from '../app/connections.ts';
import type { ConsoleServices } from '../app/services.ts';
import { ServicesContext } from '../app/servicesContext.ts';
import { CONSOLE_BASENAME, consoleRoutes } from '../app/routes.tsx';
import { createStore, type RootState } from '../app/store.ts';

export { answer, fakeApi, refusal, type FakeAnswer } from '@frontdesk/protocol/testing';

/**
 * The Janus room access a media-server call's claim hands the agent, with what a test needs
 * different in `overrides` (a claimed call's `room` may be null, so tests cannot spread it).
 */
export function roomAccess(overrides: Partial<RoomAccess> = {}): RoomAccess {
  return {
    room: 'r',
    pin: 'pin',
    server: 'local',
    token: `agent.${'t'.repeat(43)}`,
    recorded: false,
    iceServers: [],
    ...overrides,
  };
}

/**
 * A call as the API's claim answers it (guest `g` + 25 × `letter`, call `<guest>--call1`), with
 * what a test needs different in `overrides`.
 */
export function claimedCall(letter = 'a', overrides: Partial<ClaimedCall> = {}): ClaimedCall {
  const guestUsername = `g${letter.repeat(25)}`;
  return {
    callId: `${guestUsername}--call1`,
    reportId: 7,
    guestUsername,
    guestJabberUsername: 'g12-visitor-abc',
    categoryId: 40,
    callType: 'video',
    callMethod: 'mediaServer',
    room: roomAccess(),
    // Answered as the test makes it: a fixed date would make its timer read the test's own age.
    answeredAt: new Date().toISOString(),
    ...overrides,
  };
}

/** Fails loudly: a component test that reaches it has left its subject. */
export const unreachable = (): never => {
  throw new Error('a component test reached a service it did not set up');
};

/** A staff login as the API answers it for Ada, agent of company 12 with one category. */
export const adaLogin: StaffLogin = {
  access_token: 'token-ada',
  accessTokenExpiresAt: '2099-01-01T00:00:00.000Z',
  user: { id: 1, email: 'ada@frontdesk.demo', name: 'Ada Agent', role: 'agent', companyId: 12 },
  xmpp: { jid: 'staff-1@frontdesk.localhost', password: 'xmpp-token' },
  janusToken: 'janus-token',
  expiresAt: '2030-01-01T00:00:00.000Z',
  rooms: [
    {
      jid: 'clock@conference.frontdesk.localhost',
      kind: 'company',
      categoryId: null,
      password: 'pw',
    },
  ],
};

/** The services a test passes; any other fails loudly when reached ({@link unreachable}). */
export function testServices(services: Partial<ConsoleServices> = {}): ConsoleServices {
  return {
    api: unreachable,
    downloadFile: unreachable,
    loadChat: unreachable,
    loadMedia: unreachable,
    connections: new Connections(),
    ringer: { ring: unreachable },
    ...services,
  };
}

/** Never settles: an adapter a listener loads but the test does not follow. */
export const pending = () => new Promise<never>(() => undefined);

/** What a console whose workspace loaded asks the API besides a test's subject. */
export const WORKSPACE_ANSWERS = {
  'PUT /staff/me/availability': { body: undefined },
  'GET /staff': { body: { data: [] } },
};

/** Renders `ui` over a store that starts from `state`, with the services a test passes. */
export function renderWithState(
  ui: ReactElement,
  state: Partial<RootState>,
  services: Partial<ConsoleServices> = {},
) {
  const all = testServices(services);
  const store = createStore(all, state);
  return {
    store,
    services: all,
    ...render(
      <Provider store={store}>
        <ServicesContext value={all}>{ui}</ServicesContext>
      </Provider>,
    ),
  };
}

/**
 * Renders the console's pages over a store that starts from `state`, at `path` (a full address
 * such as `/console/admin/brand`); the memory router stands for the browser's address bar.
 */
export function renderRoute(
  path: string,
  state: Partial<RootState>,
  services: Partial<ConsoleServices> = {},
) {
  const router = createMemoryRouter(consoleRoutes, {
    basename: CONSOLE_BASENAME,
    initialEntries: [path],
  });
  return { router, ...renderWithState(<RouterProvider router={router} />, state, services) };
}

/** Company 12 as the API answers it: one category (40) and a welcome form. */
export const clockCompany = companyDetailsSchema.parse({
  id: 12,
  version: 1,
  name: 'Frontdesk Around the Clock',
  activated: true,
  conferenceName: 'clock',
  host: 'conference.frontdesk.localhost',
  schedule: null,
  categories: [
    { id: 40, name: 'General', roomName: 'clock-general' },
    { id: 41, name: 'Billing', roomName: 'clock-billing' },
  ],
  welcomeForm: {
    id: 4,
    title: 'About you',
    fields: [{ name: 'name', label: 'Your name', type: 'text', required: true, maxLength: 100 }],
  },
  welcomeFormTitle: null,
  ratingForm: null,
});

/** Zoe, admin of company 12 (the demo seed's admin of that company). */
export const zoeLogin: StaffLogin = {
  ...adaLogin,
  access_token: 'token-zoe',
  user: { id: 9, email: 'zoe@frontdesk.demo', name: 'Zoe Admin', role: 'admin', companyId: 12 },
};

/** The state of a signed-in member of staff (Ada, an agent, unless named) whose workspace is loaded. */
export function signedIn(login: StaffLogin = adaLogin): Pick<RootState, 'auth'> {
  return {
    auth: {
      status: 'ready',
      error: null,
      login,
      company: clockCompany,
      config: {
        apiBase: '/api',
        xmppWebsocketUrl: 'ws://localhost/xmpp',
        xmppDomain: 'frontdesk.localhost',
        janusWebsocketUrl: 'ws://localhost/janus',
        errorReporting: null,
      },
    },
  };
}
