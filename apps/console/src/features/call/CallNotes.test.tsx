import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '@frontdesk/protocol';
import type { RootState } from '../../app/store.ts';
import { fakeApi, refusal, renderWithState, signedIn, claimedCall } from '../../test/render.tsx';
import { CallNotes } from './CallNotes.tsx';
import { callDismissed, callSlice } from './callSlice.ts';
import { NOTES_PAUSE_MS, NOTES_RETRY_MS, notesDraft } from './notesAutosave.ts';

const call = claimedCall();
const NOTES = `PUT /calls/${call.callId}/notes`;

function inCall(): Partial<RootState> {
  return {
    ...signedIn(),
    call: { ...callSlice.getInitialState(), phase: 'active', call, roomJid: 'room@conference.x' },
  };
}

/** The notes route, refusing while `down.value` is true. */
function notesApi() {
  const up = fakeApi({ [NOTES]: { body: undefined } });
  const broken = fakeApi({ [NOTES]: refusal(503, 'unavailable', 'The service is busy.') });
  const down = { value: false };
  const api = ((...args: Parameters<ApiClient>) =>
    (down.value ? broken.api : up.api)(...args)) as ApiClient;
  const sent = () => [...up.requests, ...broken.requests].map((request) => request.body);
  return { api, down, sent, saved: () => up.requests.map((request) => request.body) };
}

const type = (text: string) =>
  fireEvent.change(screen.getByLabelText('Notes'), { target: { value: text } });
const state = () => screen.getByText((_, node) => node?.id === 'notes-state');

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  sessionStorage.clear();
});

describe('notes that save as you type', () => {
  it('saves once the agent pauses, not at each keystroke', async () => {
    const { api, sent } = notesApi();
    renderWithState(<CallNotes />, inCall(), { api });
    type('Wants');
    await act(() => vi.advanceTimersByTimeAsync(NOTES_PAUSE_MS / 2));
    type('Wants a refund');
    await act(() => vi.advanceTimersByTimeAsync(NOTES_PAUSE_MS / 2));
    expect(sent()).toEqual([]);
    expect(state().dataset.state).toBe('idle');
    await act(() => vi.advanceTimersByTimeAsync(NOTES_PAUSE_MS));
    expect(sent()).toEqual([{ notes: 'Wants a refund' }]);
    expect(state().textContent).toBe('Notes saved');
  });

  it('says a failed save, and tries again until it is saved', async () => {
    const { api, down, saved } = notesApi();
    down.value = true;
    renderWithState(<CallNotes />, inCall(), { api });
    type('Call back Monday');
    await act(() => vi.advanceTimersByTimeAsync(NOTES_PAUSE_MS));
    expect(state().dataset.state).toBe('failed');
    expect(state().textContent).toContain('Trying again in a moment.');
    down.value = false;
    await act(() => vi.advanceTimersByTimeAsync(NOTES_RETRY_MS));
    expect(saved()).toEqual([{ notes: 'Call back Monday' }]);
    expect(state().textContent).toBe('Notes saved');
  });

  it('gives the notes back after a reload within the call, and forgets them after it', async () => {
    const { api, saved } = notesApi();
    notesDraft.write(call.callId, 'Typed before the reload');
    const { store } = renderWithState(<CallNotes />, inCall(), { api });
    expect((screen.getByLabelText('Notes') as HTMLTextAreaElement).value).toBe(
      'Typed before the reload',
    );
    await act(() => vi.advanceTimersByTimeAsync(NOTES_PAUSE_MS));
    expect(saved()).toEqual([{ notes: 'Typed before the reload' }]);
    act(() => {
      store.dispatch(callDismissed());
    });
    expect(notesDraft.read(call.callId)).toBeNull();
  });
});
