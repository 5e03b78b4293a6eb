import type { ReactNode } from 'react';

/** The primary action of a form; while `busy` it is disabled and says what is happening. */
export function SubmitButton({
  busy,
  busyLabel,
  children,
  disabled = false,
}: {
  busy: boolean;
  busyLabel: string;
  children: ReactNode;
  disabled?: boolean;
}) {
  return (
    <button type="submit" className="button-primary" disabled={busy || disabled} aria-busy={busy}>
      {busy ? busyLabel : children}
    </button>
  );
}
