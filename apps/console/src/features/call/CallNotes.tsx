import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { t } from '../../i18n/messages.ts';
import { notesEdited, notesSubmitted } from './callSlice.ts';
import { notesDraft } from './notesAutosave.ts';
import './controls.css';

/**
 * The agent's notes on the call, saved as they type (notesAutosave.ts) with the state beside
 * them — saving, saved, or not saved and being tried again; "Save notes" saves at once.
 */
export function CallNotes() {
  const dispatch = useAppDispatch();
  const { call, notes, notesStatus, notesError } = useAppSelector((state) => state.call);
  const callId = call?.callId;

  // A reload mid-call: the notes typed in this tab come back (and are saved).
  useEffect(() => {
    if (!callId) return;
    const draft = notesDraft.read(callId);
    if (draft) dispatch(notesEdited(draft));
  }, [callId, dispatch]);

  return (
    <form
      className="notes"
      aria-describedby="notes-state"
      onSubmit={(event) => {
        event.preventDefault();
        dispatch(notesSubmitted());
      }}
    >
      <label>
        {t('notes')}
        <textarea
          value={notes}
          rows={4}
          maxLength={10_000}
          onChange={(event) => dispatch(notesEdited(event.target.value))}
        />
      </label>
      <div className="notes-footer">
        <p id="notes-state" className="notes-state" data-state={notesStatus} role="status">
          {notesStatus === 'saving' && t('notesSaving')}
          {notesStatus === 'saved' && t('notesSaved')}
          {notesStatus === 'idle' && t('notesAutosaveHint')}
          {notesStatus === 'failed' && `${notesError ?? ''} ${t('notesRetrying')}`}
        </p>
        <button type="submit" className="secondary" disabled={notesStatus === 'saving'}>
          {t('saveNotes')}
        </button>
      </div>
    </form>
  );
}
