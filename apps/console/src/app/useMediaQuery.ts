import { useSyncExternalStore } from 'react';

/** Whether the window matches `query` now, kept current as it is resized. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (changed) => {
      if (typeof matchMedia !== 'function') return () => undefined;
      const list = matchMedia(query);
      list.addEventListener('change', changed);
      return () => list.removeEventListener('change', changed);
    },
    () => (typeof matchMedia === 'function' ? matchMedia(query).matches : true),
  );
}

/** Wide enough for the workspace's three columns (queue, call, guest); global.css agrees. */
export const WIDE_WORKSPACE = '(min-width: 75rem)';
