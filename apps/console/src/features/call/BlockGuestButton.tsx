import { useId, useRef, useState } from 'react';
import { adminRoutes, blockBodySchema } from '@frontdesk/protocol';
import { describeError } from '../../app/errors.ts';
import { useAppSelector, useAppStore } from '../../app/hooks.ts';
import { useServices } from '../../app/servicesContext.ts';
import { t } from '../../i18n/messages.ts';
import { ConfirmDialog } from '../../ui/Dialog.tsx';

type State =
  { kind: 'idle' | 'asking' | 'blocking' | 'blocked' } | { kind: 'failed'; message: string };

/**
 * "Block this guest", for admins in a call (`POST /company/:id/blocks` with the call's id; the
 * API looks up the browser). Asks first, with an optional reason. Sent without `If-Match`: a
 * block adds to the list and overwrites nobody's edit, and the version the console loaded at
 * sign-in is likely stale by the time a call goes wrong.
 */
export function BlockGuestButton({ callId }: { callId: string }) {
  const { api } = useServices();
  const store = useAppStore();
  const id = useId();
  const reasonBox = useRef<HTMLInputElement>(null);
  const user = useAppSelector((state) => state.auth.login?.user);
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [reason, setReason] = useState('');
  if (user?.role !== 'admin') return null;
  const companyId = user.companyId;

  async function block() {
    const body = { callId, ...(reason.trim() ? { reason } : {}) };
    const parsed = blockBodySchema.safeParse(body);
    if (!parsed.success) {
      setState({ kind: 'failed', message: parsed.error.issues[0]?.message ?? '' });
      return;
    }
    setState({ kind: 'blocking' });
    try {
      await api(adminRoutes.blockGuest, {
        params: { id: String(companyId) },
        body,
        token: store.getState().auth.login?.access_token,
      });
      setState({ kind: 'blocked' });
    } catch (error) {
      setState({ kind: 'failed', message: describeError(error) });
    }
  }

  return (
    <>
      <button
        type="button"
        className="secondary"
        disabled={state.kind === 'blocked' || state.kind === 'blocking'}
        onClick={() => setState({ kind: 'asking' })}
      >
        {t('blockGuest')}
      </button>
      <span aria-live="polite" className="block-guest-result">
        {state.kind === 'blocked' && t('blockGuestDone')}
      </span>
      {state.kind === 'failed' && (
        <p role="alert">{t('blockGuestFailed', { reason: state.message })}</p>
      )}
      {(state.kind === 'asking' || state.kind === 'blocking') && (
        <ConfirmDialog
          title={t('blockGuestTitle')}
          description={<p>{t('blockGuestText')}</p>}
          confirmLabel={t('blockSubmit')}
          cancelLabel={t('cancel')}
          danger
          busy={state.kind === 'blocking'}
          initialFocus={reasonBox}
          onConfirm={() => void block()}
          onCancel={() => setState({ kind: 'idle' })}
          testId="confirm-block-guest"
        >
          <label htmlFor={`${id}-reason`}>{t('blockReason')}</label>
          <input
            id={`${id}-reason`}
            ref={reasonBox}
            type="text"
            value={reason}
            onChange={(event) => setReason(event.target.value)}
          />
        </ConfirmDialog>
      )}
    </>
  );
}
