import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatSession } from '@frontdesk/chat';
import type { MediaSession } from '@frontdesk/media';
import type { ClaimedCall, PresenceStatus } from '@frontdesk/protocol';
import { Connections } from '../../app/connections.ts';
import type { RootState } from '../../app/store.ts';
import { fakeApi, refusal, renderWithState, signedIn } from '../../test/render.tsx';
import { CallScreen } from './CallScreen.tsx';
import { callSlice } from './callSlice.ts';

afterEach(cleanup);

const ROOM = 'clock-general@conference.frontdesk.localhost';
const call: ClaimedCall = {
  callId: 'fingerprint0001_suffix000001--call00000001',
  reportId: 7,
  guestUsername: 'fingerprint0001_suffix000001',
  guestJabberUsername: 'g12-visitor-abc',
  categoryId: 40,
  callType: 'video',
  room: {
    room: 'fingerprint0001_suffix000001--call00000001',
    pin: 'pin',
    token: `agent.${'t'.repeat(43)}`,
    recorded: true,
    iceServers: [],
  },
};

function inCall(): Partial<RootState> {
  return {
    ...signedIn(),
    call: {
      ...callSlice.getInitialState(),
      phase: 'active',
      call,
      roomJid: ROOM,
      guestJoined: true,
    },
  };
}

/** Live adapters that record what the console asks of them. */
function liveConnections() {
  const presences: PresenceStatus[] = [];
  const connections = new Connections();
  connections.chat = {
    // In the call's room already, as after taking the guest from the queue.
    room: () => ({ joined: true }),
    setPresence: (_room: string, status: PresenceStatus) => presences.push(status),
  } as unknown as ChatSession;
  const setOnHold = vi.fn(async () => undefined);
  connections.media = { setOnHold } as unknown as MediaSession;
  return { connections, presences, setOnHold };
}

describe('call screen', () => {
  it('takes the focus and shows that the company records', () => {
    renderWithState(<CallScreen />, inCall());
    const heading = screen.getByRole('heading', { name: 'Call with Guest ABC' });
    expect(document.activeElement).toBe(heading);
    expect(screen.getByTestId('recording').textContent).toMatch(/Recording/);
  });

  it('holds: the guest is told by presence, the media stops, the button resumes', async () => {
    const { connections, presences, setOnHold } = liveConnections();
    renderWithState(<CallScreen />, inCall(), { connections });
    fireEvent.click(screen.getByRole('button', { name: 'Hold' }));
    await screen.findByRole('button', { name: 'Resume' });
    expect(screen.getByText('The guest is on hold.')).toBeTruthy();
    expect(presences).toEqual([
      { state: 'CallOnHold', peer: call.guestJabberUsername, callId: call.callId },
    ]);
    expect(setOnHold).toHaveBeenCalledWith(true);
    fireEvent.click(screen.getByRole('button', { name: 'Resume' }));
    await screen.findByRole('button', { name: 'Hold' });
    expect(presences[1]).toEqual({
      state: 'CallResumed',
      peer: call.guestJabberUsername,
      callId: call.callId,
    });
  });

  it('saves the notes on the call', async () => {
    const { api, requests } = fakeApi({ [`PUT /calls/${call.callId}/notes`]: { body: undefined } });
    renderWithState(<CallScreen />, inCall(), { api });
    fireEvent.change(screen.getByLabelText('Notes'), { target: { value: 'Wants a refund' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save notes' }));
    expect((await screen.findByRole('status')).textContent).toBe('Notes saved');
    expect(requests[0]?.body).toEqual({ notes: 'Wants a refund' });
  });

  it('says why ending failed and keeps the call', async () => {
    const { api } = fakeApi({
      [`POST /calls/${call.callId}/end`]: refusal(403, 'not_your_call', 'This call is not yours.'),
    });
    renderWithState(<CallScreen />, inCall(), { api });
    fireEvent.click(screen.getByRole('button', { name: 'End call' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'That did not work: This call is not yours.',
    );
    expect(screen.getByRole('button', { name: 'End call' })).toHaveProperty('disabled', false);
  });
});
