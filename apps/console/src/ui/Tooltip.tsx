import * as RadixTooltip from '@radix-ui/react-tooltip';
import type { ReactElement, ReactNode } from 'react';
import './primitives.css';

/**
 * A short hint beside a control, shown on hover and on keyboard focus, hidden by Escape (Radix
 * Tooltip — decision 0028). It repeats what the control's accessible name says, plus its
 * shortcut; it is never the only place a name lives.
 */
export function Tooltip(props: { label: ReactNode; children: ReactElement }) {
  return (
    // Its own provider, so a tooltip works on any page and in tests; the delay is the same.
    <RadixTooltip.Provider delayDuration={400}>
      <RadixTooltip.Root>
        <RadixTooltip.Trigger asChild>{props.children}</RadixTooltip.Trigger>
        {/* In place, not in a portal: it stays inside the page's landmarks (axe's region rule). */}
        <RadixTooltip.Content className="tooltip" sideOffset={6}>
          {props.label}
        </RadixTooltip.Content>
      </RadixTooltip.Root>
    </RadixTooltip.Provider>
  );
}
