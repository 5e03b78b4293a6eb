import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { companyDetailsSchema, routes, type CompanyDetails } from '@frontdesk/protocol';
import type { GuestServices } from '../app/services.ts';
import { ServicesContext } from '../app/servicesContext.ts';
import { createStore, type RootState } from '../app/store.ts';
import { Connections } from '../features/call/connections.ts';

/** A company as the API would answer it: the schema's defaults plus what a test overrides. */
export function company(overrides: Partial<CompanyDetails> = {}): CompanyDetails {
  return companyDetailsSchema.parse({
    id: 5,
    version: 1,
    name: 'Acme Support',
    activated: true,
    conferenceName: 'company-5',
    host: 'conference.frontdesk.localhost',
    schedule: null,
    categories: [
      { id: 1, name: 'Sales', roomName: 'sales' },
      { id: 2, name: 'Support', roomName: 'support' },
    ],
    welcomeForm: null,
    welcomeFormTitle: null,
    ratingForm: null,
    ...overrides,
  });
}

/** A call report as the API answers it, for the guest `username` and its call `callId`. */
export function callReport(username: string, callId: string) {
  return {
    id: 7,
    call_id: callId,
    origin_call_id: callId,
    previous_call_id: null,
    company: 5,
    category_id: 1,
    guest_username: username,
    source: 'site',
    status: 'ok',
    success: null,
    call_type: 'video',
    assignmentGroup: null,
    rating: null,
    created_at: new Date(0).toISOString(),
    call_initiated_timestamp: null,
    guest_exit_timestamp: null,
  };
}

/** The state of `username`, a signed-in guest of `details` (no call yet), on the selection stage. */
export function guestOnSelection(
  username: string,
  details: CompanyDetails = company(),
): Partial<RootState> {
  return {
    company: { details },
    guestAuth: {
      username,
      credential: 'secret',
      access_token: 'token',
      accessTokenExpiresAt: null,
      jabberusername: `5-${username}`,
      services: null,
      location: null,
    },
    flow: { stage: 'selection', failure: null },
  };
}

/** Services that fail loudly: a component test that reaches one has left its subject. */
const unreachable = (): never => {
  throw new Error('a component test reached a service');
};
export function offlineServices(overrides: Partial<GuestServices> = {}): GuestServices {
  const api = overrides.api ?? unreachable;
  return {
    api: unreachable,
    // The page's one request for its configuration, through the test's API when it has one.
    clientConfig: async () => (await api(routes.config)).data,
    computeFingerprint: unreachable,
    detectBot: unreachable,
    browserSupportsCalls: unreachable,
    isOnline: unreachable,
    readLocation: unreachable,
    applyBranding: unreachable,
    storage: undefined,
    loadCallAdapters: unreachable,
    connections: new Connections(),
    ...overrides,
  };
}

/** Renders `ui` over a store that starts from `state`, with `services` (default: none works). */
export function renderWithState(
  ui: ReactElement,
  state: Partial<RootState>,
  services: GuestServices = offlineServices(),
) {
  const store = createStore(
    { companyId: 5, serviceType: 'Talk', webview: false, parentOrigin: null },
    services,
    state,
  );
  return {
    store,
    services,
    ...render(
      <Provider store={store}>
        <ServicesContext value={services}>{ui}</ServicesContext>
      </Provider>,
    ),
  };
}
