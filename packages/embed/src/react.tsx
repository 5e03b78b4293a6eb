import { useEffect, useMemo, useRef } from 'react';
import {
  loadFrontdesk,
  type BootOptions,
  type Frontdesk,
  type Identity,
  type Stage,
} from './index.ts';

export type FrontdeskWidgetProps = Omit<BootOptions, 'identity'> & {
  /** Your Frontdesk's address, e.g. `https://frontdesk.example`. */
  frontdeskUrl: string;
  /** The welcome form's prefill; sent again whenever it changes. */
  identity?: Identity;
  onStage?: (stage: Stage) => void;
  onUnread?: (count: number) => void;
  onRefused?: (origin: string) => void;
};

type Handlers = Pick<FrontdeskWidgetProps, 'onStage' | 'onUnread' | 'onRefused'>;

/**
 * The mounted widgets' callbacks. The loader's listeners are added once a page and never removed
 * (a subscription queued before the loader has run has no unsubscribe to call), and hand each
 * event to whichever components are mounted now — so React's mount, unmount, mount in StrictMode
 * never doubles them.
 */
const subscribers = new Set<{ current: Handlers }>();
let listening = false;
function listenOnce(frontdesk: Frontdesk) {
  if (listening) return;
  listening = true;
  frontdesk('on', 'stage', (stage) => subscribers.forEach((s) => s.current.onStage?.(stage)));
  frontdesk('on', 'unread', (count) => subscribers.forEach((s) => s.current.onUnread?.(count)));
  frontdesk('on', 'refused', (origin) => subscribers.forEach((s) => s.current.onRefused?.(origin)));
}

/** The typed `Frontdesk` function for `frontdeskUrl` (loading the loader once). */
export function useFrontdesk(frontdeskUrl: string): Frontdesk {
  return useMemo(() => loadFrontdesk(frontdeskUrl), [frontdeskUrl]);
}

/**
 * The Frontdesk launcher and panel on a React site: boots when mounted, removes them when
 * unmounted (or booted again when its options change), keeping the visitor; to forget the
 * visitor as it signs out, call `useFrontdesk(url)('shutdown')`. Renders nothing itself: the loader draws
 * its launcher at the page's corner. Open it from your own button with `useFrontdesk(url)('open')`.
 */
export function FrontdeskWidget({
  frontdeskUrl,
  company,
  locale,
  hideLauncher,
  label,
  color,
  identity,
  onStage,
  onUnread,
  onRefused,
}: FrontdeskWidgetProps): null {
  const frontdesk = useFrontdesk(frontdeskUrl);
  // The latest callbacks, without booting again when a parent passes new functions.
  const handlers = useRef<Handlers>({ onStage, onUnread, onRefused });
  useEffect(() => {
    handlers.current = { onStage, onUnread, onRefused };
  });

  useEffect(() => {
    frontdesk('boot', { company, locale, hideLauncher, label, color });
    // Unmounting (or booting with new options) is no sign-out: the visitor stays known.
    return () => frontdesk('shutdown', { keepVisitor: true });
  }, [frontdesk, company, locale, hideLauncher, label, color]);

  useEffect(() => {
    listenOnce(frontdesk);
    const mounted = handlers;
    subscribers.add(mounted);
    return () => void subscribers.delete(mounted);
  }, [frontdesk]);

  // By content: a new object with the same answers is no change.
  const identityJson = JSON.stringify(identity ?? null);
  useEffect(() => {
    const sent = JSON.parse(identityJson) as Identity | null;
    if (sent) frontdesk('identify', sent);
  }, [frontdesk, identityJson]);
  return null;
}
