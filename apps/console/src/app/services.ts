import type * as ChatAdapter from '@frontdesk/chat';
import type * as MediaAdapter from '@frontdesk/media';
import type { ApiClient, FileDownloader } from '@frontdesk/protocol';
import type { Connections } from './connections.ts';

/** How a new guest is announced (sound, desktop notification); tests pass their own. */
export type Ringer = {
  /**
   * Starts ringing (it repeats until `stop`); a notice each time, naming the guest it announces
   * (a click on its desktop notification shows that guest, issue 19 item 3).
   */
  ring: (notice: { title: string; body: string; guestNick?: string }) => void;
  /** Nobody waits for this agent any more (answered, offered away, gone). */
  stop?: () => void;
};

/**
 * Everything the console's listeners reach outside the store. The app passes the real ones;
 * component tests pass their own, so no test needs a server it does not start.
 */
export type ConsoleServices = {
  api: ApiClient;
  /** Files the API answers for the signed-in member (the reports' CSV). */
  downloadFile: FileDownloader;
  /** The adapters load after sign-in (dynamic import): the login page stays small. */
  loadChat: () => Promise<typeof ChatAdapter>;
  loadMedia: () => Promise<typeof MediaAdapter>;
  connections: Connections;
  ringer: Ringer;
};
