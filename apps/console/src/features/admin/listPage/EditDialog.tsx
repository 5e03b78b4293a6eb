import { useState, type ReactNode, type RefObject } from 'react';
import { t } from '../../../i18n/messages.ts';
import { Dialog } from '../../../ui/Dialog.tsx';
import { SaveSummary } from '../SaveSummary.tsx';
import type { WriteResult } from './useAdminResource.ts';

/** The API's refusal of a change, as a dialog shows it. */
export type Refusal = Extract<WriteResult<unknown>, { ok: false }>;

/**
 * The frame of a dialog that edits one entry of a list (a member, a category): its form, the
 * last refusal above the fields (a stale version offers a reload that keeps what was typed),
 * Cancel and Save. `onSubmit` sends the edit and answers the refusal, or null when there is none
 * to show (the dialog then has closed, or shows its own field errors).
 */
export function EditDialog(props: {
  title: string;
  testId: string;
  initialFocus: RefObject<HTMLElement | null>;
  busy: boolean;
  onSubmit: () => Promise<Refusal | null>;
  onReload: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  return (
    <Dialog
      title={props.title}
      onCancel={props.onClose}
      initialFocus={props.initialFocus}
      testId={props.testId}
    >
      <form
        className="admin-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void props.onSubmit().then(setRefusal);
        }}
      >
        {refusal && (
          <SaveSummary
            status={refusal.outcome}
            onUndo={() => undefined}
            onReload={() => {
              setRefusal(null);
              props.onReload();
            }}
            onDismiss={() => setRefusal(null)}
          />
        )}
        {props.children}
        <div className="actions">
          <button type="button" className="secondary" onClick={props.onClose}>
            {t('cancel')}
          </button>
          <button type="submit" disabled={props.busy}>
            {props.busy ? t('saving') : t('save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
