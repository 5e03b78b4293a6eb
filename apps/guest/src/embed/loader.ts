// The embed loader a company puts on its own site (service type "Widget", spec §1):
//   <script type="module" src="https://frontdesk.example/embed.js" data-company="12"></script>
// It adds a "talk to us" button that opens the guest widget in an iframe, and a small API on
// `window.Frontdesk`. Deliberately free of runtime imports: it loads on every page of the
// company's site, so it must stay tiny (`npm run lint` holds it to 10 KB gz).
import type { EmbedMessage } from '@frontdesk/protocol';

type WidgetEvent = 'open' | 'close' | 'stage';
type Listener = (detail: unknown) => void;

const script = document.currentScript as HTMLScriptElement | null;
const scriptUrl = new URL(import.meta.url);
const settings =
  script?.dataset ??
  (document.querySelector('script[data-company]') as HTMLScriptElement | null)?.dataset ??
  {};
const origin = scriptUrl.origin;
const companyId = /^\d{1,10}$/.test(settings.company ?? '') ? settings.company : undefined;
const label = settings.label ?? 'Talk to us';
const colour = /^#[0-9a-fA-F]{6}$/.test(settings.color ?? '') ? settings.color : '#1f5fd6';

const listeners = new Map<WidgetEvent, Set<Listener>>();
function emit(event: WidgetEvent, detail?: unknown) {
  for (const listener of listeners.get(event) ?? []) listener(detail);
}

const button = document.createElement('button');
button.type = 'button';
button.textContent = label;
button.setAttribute('aria-haspopup', 'dialog');
button.style.cssText = `position:fixed;inset-block-end:20px;inset-inline-end:20px;z-index:2147483646;padding:14px 22px;border:0;border-radius:999px;background:${colour};color:#fff;font:600 16px system-ui,sans-serif;box-shadow:0 6px 20px rgb(0 0 0/25%);cursor:pointer`;

const panel = document.createElement('div');
panel.setAttribute('role', 'dialog');
panel.setAttribute('aria-label', label);
panel.hidden = true;
panel.style.cssText =
  'position:fixed;inset-block-end:84px;inset-inline-end:20px;z-index:2147483647;width:min(420px,calc(100vw - 40px));height:min(680px,calc(100vh - 110px));border-radius:16px;overflow:hidden;box-shadow:0 10px 40px rgb(0 0 0/30%);background:#fff';

const close = document.createElement('button');
close.type = 'button';
close.textContent = '×';
close.setAttribute('aria-label', 'Close');
close.style.cssText =
  'position:absolute;inset-block-start:6px;inset-inline-end:8px;z-index:1;width:32px;height:32px;border:0;border-radius:50%;background:rgb(0 0 0/8%);font:20px system-ui;cursor:pointer';

let frame: HTMLIFrameElement | null = null;

function open() {
  if (!frame) {
    // The widget is told our origin, so it can post its events to us and to nobody else.
    const src = new URL('/', origin);
    if (companyId) src.searchParams.set('company', companyId);
    src.searchParams.set('service', 'Widget');
    src.searchParams.set('parent', window.location.origin);
    frame = document.createElement('iframe');
    frame.src = src.href;
    frame.title = label;
    frame.allow = 'camera; microphone; autoplay; display-capture; geolocation';
    frame.style.cssText = 'width:100%;height:100%;border:0';
    panel.append(close, frame);
  }
  panel.hidden = false;
  button.setAttribute('aria-expanded', 'true');
  emit('open');
}

function hide() {
  panel.hidden = true;
  button.setAttribute('aria-expanded', 'false');
  button.focus();
  emit('close');
}

button.addEventListener('click', () => (panel.hidden ? open() : hide()));
close.addEventListener('click', hide);
panel.addEventListener('keydown', (event) => event.key === 'Escape' && hide());
window.addEventListener('message', (event) => {
  // SECURITY: only the widget's own origin, and only its own frame, may talk to the page.
  if (event.origin !== origin || event.source !== frame?.contentWindow) return;
  // The two shapes of EmbedMessage (packages/protocol/src/embed.ts), checked without zod.
  const data = event.data as { type?: unknown; stage?: unknown } | null;
  const type = (name: EmbedMessage['type']) => data?.type === name;
  if (type('frontdesk:stage') && typeof data?.stage === 'string') emit('stage', data.stage);
  if (type('frontdesk:close')) hide();
});
document.body.append(button, panel);

(window as unknown as { Frontdesk: unknown }).Frontdesk = {
  open,
  close: hide,
  /** Subscribes to `open`, `close` or `stage` (the guest's stage); returns the unsubscribe. */
  on(event: WidgetEvent, listener: Listener) {
    const set = listeners.get(event) ?? new Set<Listener>();
    listeners.set(event, set.add(listener));
    return () => set.delete(listener);
  },
};
