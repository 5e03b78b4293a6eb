import { useState, type CSSProperties, type FormEvent } from 'react';
import type { CallType, Category } from '@frontdesk/protocol';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { useT } from '../../i18n/useT.ts';
import { StageActions } from '../../app/StageActions.tsx';
import { SubmitButton } from '../forms/SubmitButton.tsx';
import { startCall } from '../call/startCall.ts';
import { stageReached } from '../flow/flowSlice.ts';
import './selection.css';

const COLOUR = /^#[0-9a-fA-F]{6}$/;

/**
 * A category's own colours over the company's (`null`: the company's), as the custom properties
 * global.css reads. Set through the DOM's style object, which the page's CSP allows, unlike a
 * `style` attribute; a value that is not a colour is left out.
 */
function categoryColours(category: Category): CSSProperties | undefined {
  const colours = Object.entries({
    '--fd-category-bg': category.backgroundColor,
    '--fd-category-text': category.textColor,
  }).filter(([, value]) => value !== null && COLOUR.test(value));
  return colours.length > 0 ? (Object.fromEntries(colours) as CSSProperties) : undefined;
}

/**
 * spec §2 stage "selection": the guest picks a category (in the company's categoryStyle and
 * colours, or the category's own), one of the company's assignment groups when it uses them
 * (decision 0019: no group is chosen for the guest, so nobody lands in one by not looking) and,
 * unless the company fixes it, voice or video (voice only once the guest refused the camera and
 * chose a voice call), and whether the call is recorded where the company lets the guest decline
 * (decision 0030). Back leads to the camera check where the company shows one.
 */
export function SelectionPage() {
  const t = useT();
  const dispatch = useAppDispatch();
  const company = useAppSelector((state) => state.company.details);
  const voiceOnly = useAppSelector((state) => state.browserCheck.voiceOnly);
  const [categoryId, setCategoryId] = useState<number | null>(company?.categories[0]?.id ?? null);
  const [callType, setCallType] = useState<CallType>('video');
  const [groupId, setGroupId] = useState<string | null>(null);
  const [groupMissing, setGroupMissing] = useState(false);
  const [recorded, setRecorded] = useState(true);
  const [state, setState] = useState<'choosing' | 'starting' | 'failed'>('choosing');
  if (!company) return null;
  const chosenType: CallType = voiceOnly
    ? 'voice'
    : company.callType === 'userSelect'
      ? callType
      : company.callType;
  const groups = company.assignments ? company.assignmentGroups : [];
  // decision 0030: where the company lets the guest call unrecorded, the guest chooses here,
  // before the call's room (recording or not) is made.
  const recordingOptional = company.recordCalls && company.recordingOptional;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (categoryId === null) return;
    if (groups.length > 0 && groupId === null) {
      setGroupMissing(true);
      document.getElementById('selection-group-0')?.focus();
      return;
    }
    setState('starting');
    const result = await dispatch(
      startCall({
        categoryId,
        callType: chosenType,
        assignmentGroup: groupId ?? undefined,
        recordingDeclined: recordingOptional && !recorded,
      }),
    );
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
            <label
              key={category.id}
              className="category"
              data-testid={`category-${category.id}`}
              style={categoryColours(category)}
            >
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
        {groups.length > 0 && (
          <fieldset
            className={`categories categories-${company.categoryStyle}`}
            {...(groupMissing
              ? { 'aria-invalid': true, 'aria-describedby': 'selection-group-error' }
              : {})}
          >
            <legend>{t('chooseAssignmentGroup')}</legend>
            {groups.map((group, index) => (
              <label key={group.id} className="category">
                <input
                  id={`selection-group-${index}`}
                  type="radio"
                  name="assignmentGroup"
                  value={group.id}
                  checked={groupId === group.id}
                  onChange={() => {
                    setGroupId(group.id);
                    setGroupMissing(false);
                  }}
                />
                <span>{group.name}</span>
              </label>
            ))}
          </fieldset>
        )}
        {groupMissing && (
          <p id="selection-group-error" role="alert" className="field-error">
            {t('errorChooseGroup')}
          </p>
        )}
        {company.callType === 'userSelect' && !voiceOnly && (
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
        {recordingOptional && (
          <div className="field field-checkbox">
            <input
              id="selection-recorded"
              type="checkbox"
              checked={recorded}
              onChange={(event) => setRecorded(event.target.checked)}
              aria-describedby="selection-recorded-help"
              data-testid="record-this-call"
            />
            <label htmlFor="selection-recorded">{t('recordThisCall')}</label>
            <p id="selection-recorded-help" className="field-help">
              {t('recordThisCallHelp')}
            </p>
          </div>
        )}
        {state === 'failed' && (
          <p role="alert" className="form-alert">
            {t('failed_unavailable')}
          </p>
        )}
        <StageActions
          onBack={
            company.previewScreen && state !== 'starting'
              ? () => dispatch(stageReached('preview'))
              : undefined
          }
        >
          <SubmitButton
            busy={state === 'starting'}
            busyLabel={t('startingCall')}
            disabled={categoryId === null}
          >
            {t('startCall')}
          </SubmitButton>
        </StageActions>
      </form>
    </section>
  );
}
