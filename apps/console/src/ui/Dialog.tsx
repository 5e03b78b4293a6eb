import * as RadixDialog from '@radix-ui/react-dialog';
import { useRef, type ReactNode, type RefObject } from 'react';
import './dialog.css';

/**
 * A modal dialog over the page (WAI-ARIA dialog pattern, Radix Dialog — decision 0028): the
 * focus moves in (to `initialFocus`, else its first control), Tab and Shift+Tab stay inside,
 * Escape cancels, the page behind is inert, and when it closes the focus goes back to what had it
 * before, so a keyboard user carries on where they were. `alertdialog` is for a question that
 * needs an answer before going on (a confirmation).
 */
export function Dialog(props: {
  title: string;
  role?: 'dialog' | 'alertdialog';
  onCancel: () => void;
  initialFocus?: RefObject<HTMLElement | null>;
  /** What the dialog says (its description for screen readers); controls go in `children`. */
  description?: ReactNode;
  children: ReactNode;
  testId?: string;
  /**
   * What gets the focus back on closing, when not what had it as the dialog opened: a menu's
   * item is gone with its menu, so a dialog opened from a menu gives it to the menu's button.
   */
  opener?: RefObject<HTMLElement | null>;
}) {
  const { onCancel, initialFocus } = props;
  // What had the focus as the dialog opened: Radix gives it back only to a Dialog.Trigger, and
  // our dialogs are opened by the page's own buttons.
  const focused = useRef(typeof document === 'undefined' ? null : document.activeElement);
  return (
    <RadixDialog.Root open onOpenChange={(open) => !open && onCancel()}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="modal-backdrop">
          <RadixDialog.Content
            role={props.role ?? 'dialog'}
            className="modal card"
            data-testid={props.testId}
            // Radix warns without a description; none is a valid choice for a form dialog.
            {...(props.description ? {} : { 'aria-describedby': undefined })}
            onOpenAutoFocus={(event) => {
              if (!initialFocus?.current) return;
              event.preventDefault();
              initialFocus.current.focus();
            }}
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              const opener = props.opener?.current ?? focused.current;
              if (opener instanceof HTMLElement) opener.focus();
            }}
            // Escape inside the dialog is the dialog's own: it must not also end a call.
            onKeyDown={(event) => event.key === 'Escape' && event.stopPropagation()}
          >
            <RadixDialog.Title>{props.title}</RadixDialog.Title>
            {props.description && (
              <RadixDialog.Description asChild>
                <div className="modal-text">{props.description}</div>
              </RadixDialog.Description>
            )}
            {props.children}
          </RadixDialog.Content>
        </RadixDialog.Overlay>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/**
 * "Are you sure?" before a change that is hard to take back. Cancelling is the safe answer, so
 * it has the focus first and Escape chooses it; `children` holds extra fields (a reason).
 */
export function ConfirmDialog(props: {
  title: string;
  description: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  danger?: boolean;
  busy?: boolean;
  initialFocus?: RefObject<HTMLElement | null>;
  children?: ReactNode;
  testId?: string;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      role="alertdialog"
      title={props.title}
      description={props.description}
      onCancel={props.onCancel}
      initialFocus={props.initialFocus ?? cancel}
      testId={props.testId}
    >
      {props.children}
      <div className="actions">
        <button type="button" className="secondary" ref={cancel} onClick={props.onCancel}>
          {props.cancelLabel}
        </button>
        <button
          type="button"
          className={props.danger ? 'danger' : undefined}
          disabled={props.busy}
          onClick={props.onConfirm}
        >
          {props.confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
