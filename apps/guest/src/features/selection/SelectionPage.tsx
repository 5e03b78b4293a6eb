import { useState, type FormEvent } from 'react';
import type { CallType } from '@frontdesk/protocol';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { useT } from '../../i18n/useT.ts';
import { SubmitButton } from '../forms/SubmitButton.tsx';
import { startCall } from '../call/startCall.ts';

/**
 * spec §2 stage "selection": the guest picks a category (in the company's categoryStyle and
 * colours) and, unless the company fixes it, voice or video.
 */
export function SelectionPage() {
  const t = useT();
  const dispatch = useAppDispatch();
  const company = useAppSelector((state) => state.company.details);
  const [categoryId, setCategoryId] = useState<number | null>(company?.categories[0]?.id ?? null);
  const [callType, setCallType] = useState<CallType>('video');
  const [state, setState] = useState<'choosing' | 'starting' | 'failed'>('choosing');
  if (!company) return null;
  const chosenType: CallType = company.callType === 'userSelect' ? callType : company.callType;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (categoryId === null) return;
    setState('starting');
    const result = await dispatch(startCall({ categoryId, callType: chosenType }));
    if (startCall.rejected.match(result)) setState('failed');
  }

  return (
    <section className="card" data-testid="stage-selection" aria-labelledby="selection-title">
      <h1 id="selection-title">{t('welcomeTitle')}</h1>
      <p>{company.welcomeMsg ?? t('welcomeDefault')}</p>
      <form onSubmit={submit}>
        <fieldset className={`categories categories-${company.categoryStyle}`}>
          <legend>{t('chooseCategory')}</legend>
          {company.categories.map((category) => (
            <label key={category.id} className="category" data-testid={`category-${category.id}`}>
              <input
                type="radio"
                name="category"
                value={category.id}
                checked={categoryId === category.id}
                onChange={() => setCategoryId(category.id)}
              />
              <span>{category.name}</span>
            </label>
          ))}
        </fieldset>
        {company.callType === 'userSelect' && (
          <fieldset className="call-types">
            <legend>{t('callType')}</legend>
            {(['video', 'voice'] as const).map((type) => (
              <label key={type} className="call-type">
                <input
                  type="radio"
                  name="callType"
                  value={type}
                  checked={callType === type}
                  onChange={() => setCallType(type)}
                />
                <span>{t(type === 'video' ? 'videoCall' : 'voiceCall')}</span>
              </label>
            ))}
          </fieldset>
        )}
        {state === 'failed' && (
          <p role="alert" className="form-alert">
            {t('failed_unavailable')}
          </p>
        )}
        <SubmitButton
          busy={state === 'starting'}
          busyLabel={t('startingCall')}
          disabled={categoryId === null}
        >
          {t('startCall')}
        </SubmitButton>
      </form>
    </section>
  );
}
