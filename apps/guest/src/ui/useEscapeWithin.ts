import { useEffect, useRef, type RefObject } from 'react';

/**
 * Calls `onEscape` when Escape is pressed while the focus is inside `panel` (a panel over the
 * call closes so, as dialogs do), and only then: another panel open at the same time stays.
 */
export function useEscapeWithin(panel: RefObject<HTMLElement | null>, onEscape: () => void) {
  const latest = useRef(onEscape);
  useEffect(() => {
    latest.current = onEscape;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && panel.current?.contains(event.target as Node)) {
        latest.current();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [panel]);
}
