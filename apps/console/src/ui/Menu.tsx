import * as RadixMenu from '@radix-ui/react-dropdown-menu';
import type { ReactElement } from 'react';
import './primitives.css';

export interface MenuItem {
  label: string;
  /** A key to show beside the label, e.g. the item's keyboard shortcut. */
  hint?: string;
  onSelect: () => void;
  testId?: string;
}

/**
 * A menu opened by a button (WAI-ARIA menu button, Radix Dropdown Menu — decision 0028): arrow
 * keys move between items, typing a letter jumps, Escape closes and gives the focus back.
 */
export function Menu(props: { trigger: ReactElement; items: MenuItem[]; label: string }) {
  return (
    <RadixMenu.Root>
      <RadixMenu.Trigger asChild>{props.trigger}</RadixMenu.Trigger>
      <RadixMenu.Portal>
        <RadixMenu.Content className="menu" aria-label={props.label} sideOffset={4} align="end">
          {props.items.map((item) => (
            <RadixMenu.Item
              key={item.label}
              className="menu-item"
              data-testid={item.testId}
              onSelect={item.onSelect}
            >
              <span>{item.label}</span>
              {item.hint && (
                <kbd className="menu-hint" aria-hidden="true">
                  {item.hint}
                </kbd>
              )}
            </RadixMenu.Item>
          ))}
        </RadixMenu.Content>
      </RadixMenu.Portal>
    </RadixMenu.Root>
  );
}
