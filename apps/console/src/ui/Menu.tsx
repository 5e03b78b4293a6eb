import * as RadixMenu from '@radix-ui/react-dropdown-menu';
import { Fragment, type ReactElement, type ReactNode } from 'react';
import './primitives.css';

export interface MenuItem {
  label: string;
  /** A key to show beside the label, e.g. the item's keyboard shortcut. */
  hint?: string;
  onSelect: () => void;
  testId?: string;
}

/** One choice among a few (a language): checked radio items under a label of their own. */
export interface MenuChoice {
  label: string;
  value: string;
  options: readonly { value: string; label: string; lang?: string }[];
  onChoose: (value: string) => void;
}

/**
 * A menu opened by a button (WAI-ARIA menu button, Radix Dropdown Menu — decision 0028): Enter,
 * Space or ArrowDown open it, arrow keys move between items, typing a letter jumps, Escape closes
 * and gives the focus back. `heading` names whose menu it is (not an item); a choice is set
 * apart from the items around it by separators.
 */
export function Menu(props: {
  trigger: ReactElement;
  items: readonly (MenuItem | MenuChoice)[];
  label: string;
  heading?: ReactNode;
  testId?: string;
}) {
  return (
    // Not modal, and in place rather than in a portal: the page behind stays in the accessibility
    // tree (a modal menu hides it with aria-hidden around focusable controls), and the menu stays
    // in its landmark (axe: aria-hidden-focus, region). It is positioned fixed, so no scrolling
    // box clips it.
    <RadixMenu.Root modal={false}>
      <RadixMenu.Trigger asChild>{props.trigger}</RadixMenu.Trigger>
      <RadixMenu.Content
        className="menu"
        aria-label={props.label}
        sideOffset={4}
        align="end"
        collisionPadding={8}
        data-testid={props.testId}
      >
        {props.heading && (
          <RadixMenu.Label className="menu-heading">{props.heading}</RadixMenu.Label>
        )}
        {props.items.map((item, index) =>
          'options' in item ? (
            <Fragment key={item.label}>
              {index > 0 && <RadixMenu.Separator className="menu-separator" />}
              <RadixMenu.Label className="menu-label">{item.label}</RadixMenu.Label>
              <RadixMenu.RadioGroup
                aria-label={item.label}
                value={item.value}
                onValueChange={item.onChoose}
              >
                {item.options.map((option) => (
                  <RadixMenu.RadioItem
                    key={option.value}
                    value={option.value}
                    lang={option.lang}
                    className="menu-item"
                  >
                    <span>{option.label}</span>
                    <RadixMenu.ItemIndicator className="menu-check" aria-hidden="true">
                      ✓
                    </RadixMenu.ItemIndicator>
                  </RadixMenu.RadioItem>
                ))}
              </RadixMenu.RadioGroup>
              {index < props.items.length - 1 && <RadixMenu.Separator className="menu-separator" />}
            </Fragment>
          ) : (
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
          ),
        )}
      </RadixMenu.Content>
    </RadixMenu.Root>
  );
}
