/**
 * The Frontdesk embed for a company's own site, typed (docs/embed.md). It does what the HTML
 * snippet does — puts a `Frontdesk` function on the page that queues calls until the loader
 * (`<frontdesk>/embed.js`) has loaded, then adds the loader — and gives each command its types.
 *
 *   import { loadFrontdesk } from '@frontdesk/embed';
 *   const frontdesk = loadFrontdesk('https://frontdesk.example');
 *   frontdesk('boot', { company: 12, locale: 'ar' });
 *   frontdesk('open');
 */

/** A welcome-form answer, by the form field's name. */
export type Answers = Record<string, string | number | boolean>;

/**
 * The welcome form's prefill. `answers` are shown filled in; `token` carries answers signed by
 * your server with the company's embed secret, which Frontdesk checks and shows the agent as
 * verified: `base64url(JSON {company, answers, exp}) + "." + hex(HMAC-SHA256(secret, that))`.
 */
export type Identity = { answers?: Answers; token?: string };

export type BootOptions = {
  /** The company's id in Frontdesk. */
  company: number;
  /** The widget's language (a BCP 47 tag such as `ar` or `en-GB`); the company's by default. */
  locale?: string;
  /** No launcher button: open the panel yourself with `open`. */
  hideLauncher?: boolean;
  /** The launcher's words and the panel's accessible name ("Talk to us" by default). */
  label?: string;
  /** The launcher's colour (`#rrggbb`) instead of the company's. */
  color?: string;
  /** Prefill sent as soon as the widget is ready (the same as `identify`). */
  identity?: Identity;
};

/** The guest's stages the widget reports (`stage` events). */
export type Stage =
  | 'loading'
  | 'welcome'
  | 'preview'
  | 'selection'
  | 'schedule'
  | 'outofzone'
  | 'waiting'
  | 'ongoing'
  | 'rating'
  | 'abandoned'
  | 'unsupported'
  | 'inactive'
  | 'outOfQuota'
  | 'blocked'
  | 'bot'
  | 'failed'
  /** A second tab of the guest's call: the call is open in the first (decision 0025). */
  | 'elsewhere';

/** What each event's listener receives. */
export type Events = {
  open: undefined;
  close: undefined;
  stage: Stage;
  /** Agent messages that arrived while the panel was closed (the launcher's badge). */
  unread: number;
  /** This site's origin is not in the company's `allowedOrigins`: nothing is shown. */
  refused: string;
};

/** `Frontdesk(command, …)`, typed. Calls before the loader has run are queued, in order. */
export type Frontdesk = {
  (command: 'boot', options: BootOptions): void;
  /**
   * Removes the launcher and panel and forgets the visitor (a sign-out): the widget's guest,
   * call and chat in this browser, the identify and the unread count; the next `boot` meets a
   * new visitor. `keepVisitor: true` only removes them (as `FrontdeskWidget` unmounting does).
   */
  (command: 'shutdown', options?: { keepVisitor?: boolean }): void;
  (command: 'open' | 'close'): void;
  (command: 'identify', identity: Identity): void;
  /** Returns the unsubscribe — once the loader has run; queued, it returns nothing. */
  <E extends keyof Events>(
    command: 'on',
    event: E,
    listener: (detail: Events[E]) => void,
  ): (() => void) | undefined;
};

type QueueingFrontdesk = ((...args: unknown[]) => unknown) & { q?: unknown[][] };

/**
 * Puts `window.Frontdesk` on the page (a queue until the loader has loaded) and the loader from
 * `frontdeskUrl` (your Frontdesk's address), once; answers the typed function. Safe to call
 * again and alongside the HTML snippet.
 */
export function loadFrontdesk(frontdeskUrl: string, doc: Document = document): Frontdesk {
  const win = doc.defaultView as (Window & { Frontdesk?: QueueingFrontdesk }) | null;
  if (!win) throw new Error('loadFrontdesk needs a document in a window.');
  if (!win.Frontdesk) {
    const queue: QueueingFrontdesk = (...args: unknown[]) => {
      (queue.q = queue.q ?? []).push(args);
      return undefined;
    };
    win.Frontdesk = queue;
  }
  const src = new URL('/embed.js', frontdeskUrl).href;
  if (!doc.querySelector(`script[src="${src}"]`)) {
    const script = doc.createElement('script');
    script.type = 'module';
    script.src = src;
    doc.head.append(script);
  }
  // Through the window each time: the loader replaces the queue with the real function.
  return ((...args: unknown[]) => win.Frontdesk?.(...args)) as Frontdesk;
}
