import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { MediaState } from '@frontdesk/media';
import type { ClaimedCall } from '@frontdesk/protocol';
import { Provider } from 'react-redux';
import { ServicesContext } from '../../app/servicesContext.ts';
import type { RootState } from '../../app/store.ts';
import { renderWithState, signedIn, claimedCall } from '../../test/render.tsx';
import { CallControls } from './CallControls.tsx';
import { callSlice, mediaStateChanged, muteToggled } from './callSlice.ts';

afterEach(cleanup);

const call = claimedCall();

function inCall(callType: ClaimedCall['callType'] = 'video'): Partial<RootState> {
  return {
    ...signedIn(),
    call: { ...callSlice.getInitialState(), phase: 'active', call: { ...call, callType } },
  };
}

/** The store's actions as the controls dispatch them (the listeners are not started here). */
function renderControls(state = inCall()) {
  const rendered = renderWithState(<CallControls label="Call with Guest ABC" />, state);
  const dispatched: string[] = [];
  const dispatch = rendered.store.dispatch;
  rendered.store.dispatch = ((action: { type: string; payload?: unknown }) => {
    dispatched.push(
      action.payload === undefined ? action.type : `${action.type}:${String(action.payload)}`,
    );
    return dispatch(action);
  }) as typeof dispatch;
  // Drawn again (a new element), so the controls take the recording dispatch.
  rendered.rerender(
    <Provider store={rendered.store}>
      <ServicesContext value={rendered.services}>
        <CallControls label="Call with Guest ABC" />
      </ServicesContext>
    </Provider>,
  );
  return { ...rendered, dispatched };
}

const key = (k: string, init: KeyboardEventInit = {}, target: Element = document.body) =>
  fireEvent.keyDown(target, { key: k, bubbles: true, ...init });

describe('CallControls', () => {
  it('names every icon control, marks the toggles pressed and sets End apart', () => {
    renderControls();
    const group = screen.getByRole('group', { name: 'Call with Guest ABC' });
    const mute = within(group).getByRole('button', { name: 'Mute microphone' });
    expect(mute.getAttribute('aria-pressed')).toBe('false');
    expect(mute.getAttribute('aria-keyshortcuts')).toBe('M');
    expect(
      within(group).getByRole('button', { name: 'Turn camera off' }).getAttribute('aria-pressed'),
    ).toBe('false');
    expect(within(group).getByRole('button', { name: 'Hold' }).className).toContain('neutral');
    expect(within(group).getByRole('button', { name: 'End call' }).className).toContain('danger');
    expect(
      within(group).getByRole('button', { name: 'End call' }).getAttribute('aria-keyshortcuts'),
    ).toBe('Shift+E');
  });

  it('shows the microphone pressed once the media says it is muted, and says so', () => {
    const { store } = renderControls();
    const media = { feeds: [], local: { audioMuted: true, videoMuted: false } } as unknown;
    act(() => {
      store.dispatch(mediaStateChanged(media as MediaState));
    });
    expect(
      screen.getByRole('button', { name: 'Mute microphone' }).getAttribute('aria-pressed'),
    ).toBe('true');
    expect(screen.getByRole('status').textContent).toBe('Microphone muted');
  });

  it('runs mute, camera and hold from the keyboard; no other key while a request is under way', () => {
    const { dispatched } = renderControls();
    key('m');
    key('v');
    key('h');
    key('E', { shiftKey: true }); // the hold is pending: End waits like its button
    expect(dispatched).toEqual([
      `${muteToggled.type}:audio`,
      `${muteToggled.type}:video`,
      'call/holdClicked',
    ]);
  });

  it('ends the call with Shift+E, and never with a plain E', () => {
    const { dispatched } = renderControls();
    key('e');
    key('E', { shiftKey: true });
    expect(dispatched).toEqual(['call/endClicked']);
  });

  it('takes no key typed into a field, and no camera key in a voice call', () => {
    const { dispatched } = renderControls(inCall('voice'));
    const field = document.body.appendChild(document.createElement('textarea'));
    key('m', {}, field);
    key('v');
    expect(dispatched).toEqual([]);
    expect(screen.queryByRole('button', { name: 'Turn camera off' })).toBeNull();
    field.remove();
  });

  it('opens the transfer form with T, focus in it', () => {
    renderControls();
    key('t');
    expect(screen.getByRole('form', { name: /transfer/i })).toBeTruthy();
  });

  it('lists the shortcuts in a help dialog opened with ?, closed with Escape', () => {
    const { dispatched } = renderControls();
    key('?', { shiftKey: true });
    const help = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(help).getByText('Shift+E')).toBeTruthy();
    expect(within(help).getByText('Mute or unmute the microphone')).toBeTruthy();
    // While the dialog is open the letters are not the call's.
    key('m', {}, within(help).getByRole('button', { name: 'Close' }));
    expect(dispatched).toEqual([]);
    fireEvent.keyDown(help, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
