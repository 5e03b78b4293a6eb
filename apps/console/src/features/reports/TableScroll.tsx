import type { ReactNode } from 'react';
import { t } from '../../i18n/messages.ts';

/**
 * A wide table that scrolls sideways on a phone. The scrolling box can take the focus, so a
 * keyboard can scroll it too, and is named for the screen reader that lands on it.
 */
export function TableScroll(props: { label: string; children: ReactNode }) {
  return (
    <div
      className="table-scroll"
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling box a keyboard must reach
      tabIndex={0}
      role="region"
      aria-label={t('reportTableOf', { name: props.label })}
    >
      {props.children}
    </div>
  );
}
