import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { App } from './app/App.tsx';
import { api } from './app/api.ts';
import { readPageParams } from './app/page-params.ts';
import { ServicesContext } from './app/servicesContext.ts';
import type { GuestServices } from './app/services.ts';
import { createStore } from './app/store.ts';
import { browserSupportsCalls, detectBot } from './features/browserCheck/checks.ts';
import { applyBranding } from './features/company/branding.ts';
import { readLocation } from './features/geofence/location.ts';
import { computeFingerprint } from './features/guestAuth/identity.ts';
import { startVisit } from './features/flow/startVisit.ts';
import { pageVisibilityChanged } from './features/call/callSlice.ts';
import { Connections } from './features/call/connections.ts';
import { browserNotifier } from './features/call/notifications.ts';
import { captureConsole } from './features/diagnostics/logBuffer.ts';
import { errorReportingOnDemand, reportingConsent } from './features/diagnostics/errorReporting.ts';
import { routes, type ClientConfig } from '@frontdesk/protocol';
import { sendBeacon } from '@frontdesk/protocol/browser';
import { languageOf, loadLanguage } from './i18n/messages.ts';
import './app/global.css';

function storageOrUndefined(kind: 'localStorage' | 'sessionStorage'): Storage | undefined {
  try {
    return window[kind];
  } catch {
    // Some privacy settings throw on any access to the browser's storage.
    return undefined;
  }
}

captureConsole();
const errorReporting = errorReportingOnDemand();

/**
 * The deployment's addresses (`GET /api/config`), asked once as the page starts: error reporting
 * reads them at once, the call when it starts. A failed request is asked again at the next use.
 */
let clientConfig: Promise<ClientConfig> | null = null;
function readClientConfig(): Promise<ClientConfig> {
  clientConfig ??= api(routes.config).then(
    ({ data }) => data,
    (error: unknown) => {
      clientConfig = null;
      throw error;
    },
  );
  return clientConfig;
}

/** The chat and media adapters' code: fetched ahead before a call, loaded when it starts. */
const callAdapterModules = () =>
  Promise.all([import('@frontdesk/chat'), import('@frontdesk/media')]);

const services: GuestServices = {
  api,
  computeFingerprint,
  detectBot,
  browserSupportsCalls,
  isOnline: () => navigator.onLine,
  readLocation: () => readLocation(navigator.geolocation),
  applyBranding,
  storage: storageOrUndefined('localStorage'),
  tabStorage: storageOrUndefined('sessionStorage'),
  clientConfig: readClientConfig,
  // Loaded when the guest joins a queue, not before: the pre-call pages stay light. Error
  // reporting's SDK comes then too, to trace and replay the call.
  loadCallAdapters: async () => {
    errorReporting.callStarts();
    const [chat, media] = await callAdapterModules();
    return {
      createChat: (options) => new chat.ChatSession(options),
      createMedia: (options) => media.createMediaSession(options),
      createP2pMedia: (options) => media.createP2pSession(options),
    };
  },
  prefetchCallAdapters: () => void callAdapterModules().catch(() => undefined),
  connections: new Connections(),
  notifier: browserNotifier(),
};
const store = createStore(readPageParams(window.location.search), services);
// docs/privacy.md: where the company asks for consent, no error report leaves before it.
store.subscribe(() => errorReporting.consent(reportingConsent(store.getState())));

// The page the API serves names the company's language: its sentences load beside the company.
void loadLanguage(
  languageOf(
    store.getState().page.language ?? (document.documentElement.lang || navigator.language),
  ),
);

// Started here rather than in an effect: once per page, before the first render.
void store.dispatch(startVisit());
void readClientConfig().then(
  (config) => errorReporting.configure(config.errorReporting),
  () => errorReporting.configure(null),
);

// Embedded by the loader (service type Widget): the host page's side of the conversation,
// loaded only inside a frame that names its parent, so other visits do not carry it.
if (store.getState().page.parentOrigin && window.parent !== window) {
  void import('./embed/bridge.ts').then(({ startEmbedBridge }) =>
    startEmbedBridge(store, window, services),
  );
}

// spec §4: the waiting guest's presence follows the page's visibility.
document.addEventListener('visibilitychange', () =>
  store.dispatch(pageVisibilityChanged(document.visibilityState === 'visible')),
);
// spec §7: the guest's exit is stamped even as the page closes (sendBeacon outlives it).
window.addEventListener('pagehide', () => {
  const { report, guestAuth } = store.getState();
  if (!report.callID || !guestAuth.access_token) return;
  sendBeacon('/api', routes.stampCallReportByBeacon, {
    call_id: report.callID,
    guest_exit_timestamp: true,
    access_token: guestAuth.access_token,
  });
});

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
createRoot(root).render(
  <StrictMode>
    <Provider store={store}>
      <ServicesContext value={services}>
        <App />
      </ServicesContext>
    </Provider>
  </StrictMode>,
);
