// The embed loader a company puts on its own site (service type "Widget", docs/embed.md,
// decision 0021). Two ways in:
//   the snippet, which queues calls made before this file has loaded —
//     <script>(function(w,d,u){var f=w.Frontdesk=w.Frontdesk||function(){(f.q=f.q||[]).push(arguments)};
//     var s=d.createElement('script');s.type='module';s.src=u;d.head.appendChild(s)})
//     (window,document,'https://frontdesk.example/embed.js');
//     Frontdesk('boot',{company:12});</script>
//   or the plain tag, which boots with its data attributes —
//     <script type="module" src="https://frontdesk.example/embed.js" data-company="12"></script>
// It draws a launcher in the company's colours (with an unread badge) that opens the guest widget
// in an iframe panel (full screen on phones), and answers `Frontdesk(command, …)`.
// Deliberately free of runtime imports: it loads on every page of the company's site, so it must
// stay tiny (`npm run lint` holds it to 10 KB gz).
import type {
  EmbedConfig,
  EmbedHostMessage,
  EmbedIdentify,
  EmbedMessage,
} from '@frontdesk/protocol';

type EventName = 'open' | 'close' | 'stage' | 'unread' | 'refused';
type Listener = (detail: unknown) => void;
export type BootOptions = {
  company: number | string;
  /** The widget's language (a BCP 47 tag); the company's own when left out. */
  locale?: string;
  /** No launcher: the site opens the panel itself with `Frontdesk('open')`. */
  hideLauncher?: boolean;
  /** The launcher's words (and the panel's accessible name). */
  label?: string;
  /** The launcher's colour, instead of the company's (`#rrggbb`). */
  color?: string;
  /** The same as `Frontdesk('identify', …)` right after booting. */
  identity?: EmbedIdentify;
};

const origin = new URL(import.meta.url).origin;
const hex = (value: unknown) =>
  typeof value === 'string' && /^#[0-9a-f]{6}$/i.test(value) ? value : undefined;
// The host page's tab: whether the panel was open when the site's last page was left.
const KEPT = 'frontdesk:panel';
const store = {
  get: () => {
    try {
      return sessionStorage.getItem(KEPT);
    } catch {
      return null;
    }
  },
  set: (value: string | null) => {
    try {
      if (value) sessionStorage.setItem(KEPT, value);
      else sessionStorage.removeItem(KEPT);
    } catch {
      // Storage may be refused (privacy settings): the panel then simply starts closed.
    }
  },
};

// The host site's browser: companies whose widget has still to forget its visitor, because the
// site shut it down (its visitor signed out) before the widget could be told, or heard it say so.
const FORGET = (companyId: string) => `frontdesk:forget:${companyId}`;
const mustForget = {
  get: (companyId: string) => {
    try {
      return localStorage.getItem(FORGET(companyId)) !== null;
    } catch {
      return false;
    }
  },
  set: (companyId: string, value: boolean) => {
    try {
      if (value) localStorage.setItem(FORGET(companyId), '1');
      else localStorage.removeItem(FORGET(companyId));
    } catch {
      // Storage refused: only a frame that was ready at the shutdown is told.
    }
  },
};

const listeners = new Map<EventName, Set<Listener>>();
function emit(event: EventName, detail?: unknown) {
  for (const listener of listeners.get(event) ?? []) listener(detail);
}

/** One boot's elements and state; `shutdown` drops it whole. */
type Widget = {
  options: BootOptions;
  companyId: string;
  label: string;
  launcher: HTMLButtonElement;
  badge: HTMLSpanElement;
  panel: HTMLDivElement;
  closeButton: HTMLButtonElement;
  frame: HTMLIFrameElement | null;
  ready: boolean;
  /** Granted by the API for this site (its origin is in the company's allowedOrigins). */
  allowed: boolean;
  wantOpen: boolean;
  stage: string | null;
  identity: EmbedIdentify | null;
  phone: MediaQueryList;
  detach: () => void;
  leaveTimer?: ReturnType<typeof setTimeout>;
};
let widget: Widget | null = null;
/** A shut-down boot whose frame, hidden, is forgetting its visitor; removed once it says so. */
let leaving: Widget | null = null;
/** How long a shut-down frame has to forget before it is removed all the same. */
const FORGET_MS = 3000;

const PANEL_DESKTOP =
  'position:fixed;inset-block-end:84px;inset-inline-end:20px;z-index:2147483647;width:min(420px,calc(100vw - 40px));height:min(680px,calc(100vh - 110px));border-radius:16px;overflow:hidden;box-shadow:0 10px 40px rgb(0 0 0/30%);background:#fff';
const PANEL_PHONE =
  'position:fixed;inset:0;z-index:2147483647;width:100%;height:100%;border-radius:0;overflow:hidden;background:#fff';

function post(w: Widget, message: EmbedHostMessage) {
  // SECURITY: only to our own origin, so nothing reaches a page that replaced the frame.
  if (w.ready) w.frame?.contentWindow?.postMessage(message, origin);
}

function setUnread(w: Widget, count: number) {
  w.badge.hidden = count === 0;
  w.badge.textContent = String(Math.min(count, 99));
  w.launcher.setAttribute('aria-label', count ? `${w.label} (${count} unread)` : w.label);
  emit('unread', count);
}

function placePanel(w: Widget) {
  w.panel.style.cssText = w.phone.matches ? PANEL_PHONE : PANEL_DESKTOP;
  w.panel.hidden = !w.frame || w.panel.dataset.open !== 'true';
}

function open() {
  const w = widget;
  if (!w) return;
  w.wantOpen = true;
  if (!w.allowed) return; // opened once the API has answered for this site
  if (!w.frame) {
    // The widget is told our origin, so it can post its events to us and to nobody else.
    const src = new URL('/', origin);
    src.searchParams.set('company', w.companyId);
    src.searchParams.set('service', 'Widget');
    src.searchParams.set('parent', window.location.origin);
    if (w.options.locale && /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(w.options.locale)) {
      src.searchParams.set('lang', w.options.locale);
    }
    w.frame = document.createElement('iframe');
    w.frame.src = src.href;
    w.frame.title = w.label;
    w.frame.allow = 'camera; microphone; autoplay; display-capture; geolocation; fullscreen';
    w.frame.style.cssText = 'width:100%;height:100%;border:0';
    w.panel.append(w.closeButton, w.frame);
  }
  w.panel.dataset.open = 'true';
  placePanel(w);
  w.launcher.setAttribute('aria-expanded', 'true');
  post(w, { type: 'frontdesk:panel', open: true });
  setUnread(w, 0);
  store.set('open');
  emit('open');
}

function close() {
  const w = widget;
  if (!w) return;
  w.wantOpen = false;
  if (w.panel.dataset.open !== 'true') return;
  w.panel.dataset.open = 'false';
  placePanel(w);
  w.launcher.setAttribute('aria-expanded', 'false');
  post(w, { type: 'frontdesk:panel', open: false });
  store.set(null);
  if (!w.launcher.hidden) w.launcher.focus();
  emit('close');
}

function onMessage(event: MessageEvent) {
  // SECURITY: only the widget's own origin, and only its own frame, may talk to the page.
  if (event.origin !== origin) return;
  const forgotten = (event.data as { type?: unknown } | null)?.type === 'frontdesk:forgotten';
  if (leaving?.frame && event.source === leaving.frame.contentWindow) {
    if (forgotten) finishLeaving(leaving, true);
    return;
  }
  const w = widget;
  if (!w || !w.frame || event.source !== w.frame.contentWindow) return;
  // The shapes of EmbedMessage (packages/protocol/src/embed.ts), checked without zod.
  const data = event.data as {
    type?: unknown;
    stage?: unknown;
    count?: unknown;
    dir?: unknown;
  } | null;
  const type = (name: EmbedMessage['type']) => data?.type === name;
  if (forgotten) {
    // A frame that met a visitor the site had signed out: it starts again with a new one.
    mustForget.set(w.companyId, false);
    w.ready = false;
    w.frame.setAttribute('src', w.frame.src);
    return;
  }
  if (type('frontdesk:ready')) {
    w.ready = true;
    if (data?.dir === 'rtl' || data?.dir === 'ltr') w.closeButton.dir = data.dir;
    if (mustForget.get(w.companyId)) return post(w, { type: 'frontdesk:forget' });
    post(w, { type: 'frontdesk:panel', open: w.panel.dataset.open === 'true' });
    if (w.identity) post(w, { type: 'frontdesk:identify', identity: w.identity });
  }
  if (type('frontdesk:stage') && typeof data?.stage === 'string') {
    w.stage = data.stage;
    emit('stage', data.stage);
  }
  if (type('frontdesk:unread') && typeof data?.count === 'number' && data.count >= 0) {
    setUnread(w, w.panel.dataset.open === 'true' ? 0 : Math.floor(data.count));
  }
  if (type('frontdesk:close')) close();
}

/** Asks our API whether this site may show the company's widget, and for its colours. */
async function fetchConfig(companyId: string): Promise<EmbedConfig | null> {
  try {
    // eslint-disable-next-line no-restricted-globals -- the loader imports nothing (its budget), not even the REST client
    const answer = await fetch(`${origin}/api/embed/${companyId}`, { credentials: 'omit' });
    if (!answer.ok) return null;
    return ((await answer.json()) as { data: EmbedConfig }).data;
  } catch {
    // A refusal comes without CORS headers, so the browser reports it as a network error.
    return null;
  }
}

function boot(options: BootOptions) {
  // Booting again replaces the last boot, keeping whether the panel was open.
  teardown();
  const companyId = String(options?.company ?? '');
  if (!/^\d{1,10}$/.test(companyId)) {
    console.error('Frontdesk: boot needs {company: <the company id>}.');
    return;
  }
  const label = options.label || 'Talk to us';
  const launcher = document.createElement('button');
  launcher.type = 'button';
  launcher.textContent = label;
  launcher.setAttribute('aria-haspopup', 'dialog');
  launcher.setAttribute('aria-expanded', 'false');
  launcher.hidden = true; // shown once the API has allowed this site
  const badge = document.createElement('span');
  badge.hidden = true;
  badge.setAttribute('aria-hidden', 'true');
  badge.dataset.frontdeskUnread = '';
  badge.style.cssText =
    'position:absolute;inset-block-start:-6px;inset-inline-end:-6px;min-width:22px;height:22px;padding:0 6px;box-sizing:border-box;border-radius:11px;background:#c62828;color:#fff;font:700 13px/22px system-ui,sans-serif;text-align:center;border:2px solid #fff';
  launcher.append(badge);

  const panel = document.createElement('div');
  panel.setAttribute('role', 'dialog');
  panel.setAttribute('aria-label', label);
  panel.hidden = true;

  const closeButton = document.createElement('button');
  closeButton.type = 'button';
  closeButton.textContent = '×';
  closeButton.setAttribute('aria-label', 'Close');
  closeButton.style.cssText =
    'position:absolute;inset-block-start:6px;inset-inline-end:8px;z-index:1;width:32px;height:32px;border:0;border-radius:50%;background:rgb(0 0 0/8%);color:#000;font:20px system-ui;cursor:pointer';

  const phone = window.matchMedia('(max-width: 640px)');
  const w: Widget = {
    options,
    companyId,
    label,
    launcher,
    badge,
    panel,
    closeButton,
    frame: null,
    ready: false,
    allowed: false,
    wantOpen: false,
    stage: null,
    identity: options.identity ?? null,
    phone,
    detach: () => undefined,
  };
  const onPhoneChange = () => placePanel(w);
  const onKey = (event: KeyboardEvent) => event.key === 'Escape' && close();
  launcher.addEventListener('click', () => (panel.dataset.open === 'true' ? close() : open()));
  closeButton.addEventListener('click', close);
  panel.addEventListener('keydown', onKey);
  phone.addEventListener('change', onPhoneChange);
  w.detach = () => {
    phone.removeEventListener('change', onPhoneChange);
    launcher.remove();
    panel.remove();
  };
  widget = w;
  document.body.append(launcher, panel);
  // The panel was open when the visitor left the site's last page (a call or a queue place, say):
  // open it again, and the widget picks its conversation up where it was.
  if (store.get() === 'open') w.wantOpen = true;

  void fetchConfig(companyId).then((config) => {
    if (widget !== w) return; // shut down (or booted again) meanwhile
    if (!config) {
      console.warn(
        `Frontdesk: ${window.location.origin} is not in the allowedOrigins of company ${companyId}; the widget stays off.`,
      );
      emit('refused', window.location.origin);
      return;
    }
    w.allowed = true;
    const background = hex(options.color) ?? hex(config.launcherColor) ?? '#1f5fd6';
    const text = (!hex(options.color) && hex(config.launcherTextColor)) || '#fff';
    launcher.style.cssText = `position:fixed;inset-block-end:20px;inset-inline-end:20px;z-index:2147483646;padding:14px 22px;border:0;border-radius:999px;background:${background};color:${text};font:600 16px system-ui,sans-serif;box-shadow:0 6px 20px rgb(0 0 0/25%);cursor:pointer`;
    launcher.hidden = Boolean(options.hideLauncher);
    // The close button follows the widget's direction (its header's free end), not the site's:
    // the locale's when one was asked for (Arabic right to left), until the widget says (ready).
    const rtl = options.locale ? /^ar(-|$)/i.test(options.locale) : config.pageDirection === 'rtl';
    closeButton.dir = rtl ? 'rtl' : 'ltr';
    if (w.wantOpen) open();
  });
}

function teardown() {
  widget?.detach();
  widget = null;
}

/** Removes a shut-down frame; only one that said it forgot is no longer owed the forget. */
function finishLeaving(w: Widget, forgotten: boolean) {
  clearTimeout(w.leaveTimer);
  if (forgotten) mustForget.set(w.companyId, false);
  w.detach();
  if (leaving === w) leaving = null;
}

/**
 * The site's visitor signed out (as Intercom's shutdown): the launcher and panel go, and so does
 * what the widget knows of the visitor — its guest, call ticket and chat in the widget's storage
 * (told through the frame, which stays hidden until it has forgotten), the identify, the badge —
 * so the next boot meets a new visitor. A frame not ready to be told is told when one next is
 * (`frontdesk:forget:<company>` in this site's storage). `keepVisitor`: only the launcher and
 * panel go (a React component unmounting).
 */
function shutdown(options?: { keepVisitor?: boolean }) {
  const w = widget;
  store.set(null);
  if (!w || options?.keepVisitor) return teardown();
  widget = null;
  if (!w.badge.hidden) emit('unread', 0);
  mustForget.set(w.companyId, true);
  if (!w.ready || !w.frame) return w.detach();
  if (leaving) finishLeaving(leaving, false);
  leaving = w;
  w.launcher.remove();
  w.panel.hidden = true;
  w.leaveTimer = setTimeout(() => finishLeaving(w, false), FORGET_MS);
  post(w, { type: 'frontdesk:forget' });
}

/** Prefills the welcome form; a signed `token` makes the answers verified for the agent. */
function identify(identity: EmbedIdentify) {
  const w = widget;
  if (!w || !identity || typeof identity !== 'object') return;
  w.identity = identity;
  post(w, { type: 'frontdesk:identify', identity });
}

const commands: Record<string, (...args: never[]) => unknown> = {
  boot,
  shutdown,
  open,
  close,
  identify,
  /** Subscribes to open, close, stage, unread or refused; returns the unsubscribe. */
  on(event: EventName, listener: Listener) {
    const set = listeners.get(event) ?? new Set<Listener>();
    listeners.set(event, set.add(listener));
    return () => set.delete(listener);
  },
};

function Frontdesk(command: string, ...args: unknown[]): unknown {
  const run = commands[command];
  if (!run) {
    console.error(`Frontdesk: unknown command ${String(command)}.`);
    return undefined;
  }
  return (run as (...a: unknown[]) => unknown)(...args);
}
// Frontdesk.open() and the like too, as the first loader had them.
Object.assign(Frontdesk, commands);

const host = window as unknown as { Frontdesk?: { q?: ArrayLike<unknown>[] } | typeof Frontdesk };
const queued = Array.from((host.Frontdesk && 'q' in host.Frontdesk && host.Frontdesk.q) || []);
host.Frontdesk = Frontdesk;
// The plain tag boots itself from its data attributes, unless the page queued its own boot.
const tag = document.querySelector<HTMLScriptElement>('script[data-company]');
if (tag && !queued.some((call) => call[0] === 'boot')) {
  boot({
    company: tag.dataset.company ?? '',
    label: tag.dataset.label,
    color: tag.dataset.color,
    locale: tag.dataset.locale,
    hideLauncher: tag.dataset.hideLauncher === 'true',
  });
}
window.addEventListener('message', onMessage);
for (const call of queued) Frontdesk(...(Array.from(call) as [string, ...unknown[]]));
