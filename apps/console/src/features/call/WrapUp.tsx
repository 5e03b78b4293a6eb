import { useEffect, useId, useState } from 'react';
import { useStore } from 'react-redux';
import { adminRoutes, type CallWrapUpBody, type OutcomeCode } from '@frontdesk/protocol';
import { describeError } from '../../app/errors.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { useServices } from '../../app/servicesContext.ts';
import type { RootState } from '../../app/store.ts';
import { t } from '../../i18n/messages.ts';
import { notify } from '../../ui/toast.ts';
import './controls.css';

type Status = 'idle' | 'saving' | 'saved';

/**
 * The call's wrap-up (issue 19 item 3), once it ended: an outcome from the company's list (its
 * admin keeps it under Call outcomes), whether it needs a follow-up and what about; saved with
 * the call, and saved again if changed.
 */
export function WrapUp({ callId }: { callId: string }) {
  const { api } = useServices();
  const store = useStore<RootState>();
  const companyId = useAppSelector((state) => state.auth.login?.user.companyId);
  const id = useId();
  const [codes, setCodes] = useState<OutcomeCode[] | null>(null);
  const [draft, setDraft] = useState<CallWrapUpBody>({
    outcomeCode: null,
    followUp: false,
    followUpNote: '',
  });
  const [status, setStatus] = useState<Status>('idle');
  const [problem, setProblem] = useState<string | null>(null);
  const token = () => store.getState().auth.login?.access_token;

  useEffect(() => {
    if (companyId === undefined) return;
    let live = true;
    Promise.resolve()
      .then(() =>
        api(adminRoutes.outcomeCodes, { params: { id: String(companyId) }, token: token() }),
      )
      .then(({ data }) => live && setCodes(data))
      .catch((error: unknown) => {
        if (!live) return;
        setCodes([]);
        notify(t('wrapUpCodesFailed', { reason: describeError(error) }));
      });
    return () => {
      live = false;
    };
    // The token is read when asking; the list is the company's, loaded once per call.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, companyId, callId]);

  const edit = (change: Partial<CallWrapUpBody>) => {
    setDraft((now) => ({ ...now, ...change }));
    setStatus('idle');
  };

  async function save() {
    if (codes && codes.length > 0 && draft.outcomeCode === null) {
      setProblem(t('wrapUpOutcomeRequired'));
      return;
    }
    setProblem(null);
    setStatus('saving');
    try {
      await api(adminRoutes.callWrapUp, { params: { callId }, body: draft, token: token() });
      setStatus('saved');
    } catch (error) {
      setStatus('idle');
      setProblem(t('wrapUpFailed', { reason: describeError(error) }));
    }
  }

  return (
    <form
      className="wrap-up card"
      aria-labelledby={`${id}-title`}
      data-testid="wrap-up"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <h3 id={`${id}-title`}>{t('wrapUpTitle')}</h3>
      {codes && codes.length > 0 && (
        <label>
          {t('wrapUpOutcome')}
          <select
            value={draft.outcomeCode ?? ''}
            aria-required="true"
            aria-invalid={problem === t('wrapUpOutcomeRequired') ? true : undefined}
            onChange={(event) => edit({ outcomeCode: event.target.value || null })}
          >
            <option value="">{t('wrapUpChooseOutcome')}</option>
            {codes.map((code) => (
              <option key={code.code} value={code.code}>
                {code.label}
              </option>
            ))}
          </select>
        </label>
      )}
      <label className="checkbox">
        <input
          type="checkbox"
          checked={draft.followUp}
          onChange={(event) => edit({ followUp: event.target.checked })}
        />
        {t('wrapUpFollowUp')}
      </label>
      {draft.followUp && (
        <label>
          {t('wrapUpFollowUpNote')}
          <textarea
            rows={3}
            maxLength={1_000}
            value={draft.followUpNote}
            onChange={(event) => edit({ followUpNote: event.target.value })}
          />
        </label>
      )}
      <div className="notes-footer">
        <p role="status" className="notes-state" data-state={status}>
          {status === 'saving' && t('wrapUpSaving')}
          {status === 'saved' && t('wrapUpSaved')}
        </p>
        <button type="submit" disabled={status === 'saving' || codes === null}>
          {t('wrapUpSave')}
        </button>
      </div>
      {problem && <p role="alert">{problem}</p>}
    </form>
  );
}
