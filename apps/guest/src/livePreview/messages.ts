import {
  previewMessageSchema,
  type PreviewMessage,
  type PreviewRequest,
} from '@frontdesk/protocol';

/**
 * Hands `onRequest` each draft the console sends the preview page. SECURITY: a message counts
 * only when it comes from the window that frames this page and from our own origin (the
 * console's admin area; CSP frame-ancestors 'self' keeps other sites from framing the page at
 * all), and only as the protocol's schema reads it; anything else is ignored. Returns the
 * function that stops listening.
 */
export function listenForPreviewRequests(
  win: Window,
  onRequest: (request: PreviewRequest) => void,
): () => void {
  const onMessage = (event: MessageEvent) => {
    if (event.origin !== win.location.origin || event.source !== win.parent) return;
    const parsed = previewMessageSchema.safeParse(event.data);
    if (parsed.success && parsed.data.type === 'frontdesk:preview') onRequest(parsed.data);
  };
  win.addEventListener('message', onMessage);
  return () => win.removeEventListener('message', onMessage);
}

/** Tells the framing console that the preview listens, or has shown its last draft. */
export function announceReady(win: Window): void {
  const ready: PreviewMessage = { type: 'frontdesk:preview-ready' };
  // SECURITY: to our own origin only; a page of another origin framing us hears nothing.
  win.parent.postMessage(ready, win.location.origin);
}
