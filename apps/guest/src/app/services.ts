import type { ClientConfig, CompanyDetails } from '@frontdesk/protocol';
import type { ApiClient } from './api.ts';
import type { CallAdapters, Connections } from '../features/call/connections.ts';
import type { GuestNotifier } from '../features/call/notifications.ts';
import type { GuestLocation } from '../features/guestAuth/guestAuthSlice.ts';

/**
 * Everything the guest flow's side effects reach outside the store. The app passes the real
 * ones; component tests pass their own, so no test needs a server it does not start.
 */
export type GuestServices = {
  api: ApiClient;
  computeFingerprint: () => Promise<string>;
  detectBot: () => Promise<boolean>;
  browserSupportsCalls: () => boolean;
  isOnline: () => boolean;
  readLocation: () => Promise<GuestLocation>;
  /** `requested`: the language the page was asked for (`?lang=`), over the company's. */
  applyBranding: (company: CompanyDetails, requested?: string) => void;
  storage: Storage | undefined;
  /**
   * This tab's own storage (sessionStorage): where the live call's ticket waits for a reload
   * (decision 0025). Absent in tests that do not reload.
   */
  tabStorage?: Storage;
  /** The deployment's addresses (`GET /api/config`), asked once per page. */
  clientConfig: () => Promise<ClientConfig>;
  /** The chat and media adapters load when the guest joins a queue (dynamic import). */
  loadCallAdapters: () => Promise<CallAdapters>;
  /**
   * Fetches the adapters' code ahead of the call (the stages just before it), starting nothing;
   * absent where there is no code to fetch (tests).
   */
  prefetchCallAdapters?: () => void;
  /** The live call and its streams: created once per page, reached by thunks and listeners. */
  connections: Connections;
  /** The browser's notifications (spec §3 `notificationAllowed`); absent where it has none. */
  notifier?: GuestNotifier;
};
