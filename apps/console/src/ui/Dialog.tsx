import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';
import './dialog.css';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog over the page (WAI-ARIA dialog pattern): the focus moves in (to `initialFocus`,
 * else its first control), Tab and Shift+Tab stay inside, Escape cancels, and when it closes the
 * focus goes back to what had it before, so a keyboard user carries on where they were.
 * `alertdialog` is for a question that needs an answer before going on (a confirmation).
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
}) {
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const { onCancel, initialFocus } = props;

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const first = initialFocus?.current ?? box.current?.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, [initialFocus]);

  function onKeyDown(event: React.KeyboardEvent) {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onCancel();
      return;
    }
    if (event.key !== 'Tab' || !box.current) return;
    const focusable = [...box.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <div className="modal-backdrop">
      {/* The keys are handled on the dialog itself: Escape and the Tab loop are its own. */}
      <div
        ref={box}
        role={props.role ?? 'dialog'}
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={props.description ? `${id}-text` : undefined}
        className="modal card"
        data-testid={props.testId}
        onKeyDown={onKeyDown}
      >
        <h2 id={`${id}-title`}>{props.title}</h2>
        {props.description && (
          <div id={`${id}-text`} className="modal-text">
            {props.description}
          </div>
        )}
        {props.children}
      </div>
    </div>
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
