import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatSession } from '@frontdesk/chat';
import type { MediaSession, MediaState } from '@frontdesk/media';
import type { CallQualityBody, ClaimedCall, PresenceStatus } from '@frontdesk/protocol';
import { Connections } from '../../app/connections.ts';
import type { RootState } from '../../app/store.ts';
import { answer, fakeApi, refusal, renderWithState, signedIn } from '../../test/render.tsx';
import { CallScreen } from './CallScreen.tsx';
import { callSlice } from './callSlice.ts';

afterEach(cleanup);

const ROOM = 'clock-general@conference.frontdesk.localhost';
const GUEST = `g${'a'.repeat(25)}`;
const call: ClaimedCall = {
  callId: `${GUEST}--call1`,
  reportId: 7,
  guestUsername: GUEST,
  guestJabberUsername: 'g12-visitor-abc',
  categoryId: 40,
  callType: 'video',
  callMethod: 'mediaServer',
  room: {
    room: `${GUEST}--call1`,
    pin: 'pin',
    server: 'local',
    token: `agent.${'t'.repeat(43)}`,
    recorded: true,
    iceServers: [],
  },
  answeredAt: '2026-11-27T02:00:00.000Z',
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
  const close = vi.fn(async () => undefined);
  const qualityReport = vi.fn(async () => figures);
  connections.media = { setOnHold, close, qualityReport } as unknown as MediaSession;
  return { connections, presences, setOnHold, close, qualityReport };
}

/** What the agent's media measured of the call. */
const figures: CallQualityBody = {
  setupMs: 920,
  localCandidateType: 'srflx',
  remoteCandidateType: 'host',
  relayProtocol: null,
  packetsReceived: 30_112,
  packetsLost: 4,
  jitterMs: 3.1,
  roundTripMs: 41.5,
  sendKbps: 1210.7,
  receiveKbps: 980.2,
  reconnects: 0,
  iceFailed: false,
};

/** What the media says with the guest's feed in, its microphone off. */
const guestMicOff = {
  status: 'connected',
  feeds: [
    { janusId: '1', display: 'guest', onlyAudio: false, audioMuted: true, videoMuted: false },
  ],
  local: { audioMuted: false, videoMuted: false, onHold: false },
  streamsReady: { local: false, remote: true },
  quality: { send: null, receive: null },
} as unknown as MediaState;

describe('call screen', () => {
  it('says the guest’s microphone is off, but only that the call is held while it is', () => {
    const state = inCall();
    const withMedia = { ...callSlice.getInitialState(), ...state.call, media: guestMicOff };
    renderWithState(<CallScreen />, { ...state, call: withMedia });
    expect(screen.getByText('The guest’s microphone is off')).toBeTruthy();
    cleanup();
    // As a console reloaded while it held the call comes back (decision 0027): held, the
    // guest's microphone off because of the hold.
    renderWithState(<CallScreen />, { ...state, call: { ...withMedia, onHold: true } });
    expect(screen.getByText('The guest is on hold.').getAttribute('role')).toBe('status');
    expect(screen.queryByText('The guest’s microphone is off')).toBeNull();
  });

  it('takes the focus and shows that the company records', () => {
    renderWithState(<CallScreen />, inCall());
    const heading = screen.getByRole('heading', { name: 'Call with Guest ABC' });
    expect(document.activeElement).toBe(heading);
    expect(screen.getByTestId('recording').textContent).toMatch(/Recording/);
  });

  it('counts the call’s time from when the API recorded it answered, not from this page', () => {
    // A page opened 2 min 5 s after the answer (a reload mid-call): it counts on from there.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse(call.answeredAt) + 125_000);
    try {
      renderWithState(<CallScreen />, inCall());
      expect(screen.getByRole('timer', { name: 'Call time' }).textContent).toContain('2:05');
    } finally {
      vi.useRealTimers();
    }
  });

  it('holds: the guest is told by presence, the media stops, the button resumes', async () => {
    const { connections, presences, setOnHold } = liveConnections();
    const HOLD = `POST /calls/${call.callId}/hold`;
    const { api, requests } = fakeApi({ [HOLD]: { body: undefined } });
    renderWithState(<CallScreen />, inCall(), { connections, api });
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
    // The API records both, for the reports' holds and hold time.
    expect(requests).toEqual([
      { route: HOLD, body: { onHold: true } },
      { route: HOLD, body: { onHold: false } },
    ]);
  });

  it('holds the call when the API cannot record the hold', async () => {
    const { connections, presences, setOnHold } = liveConnections();
    const { api } = fakeApi({
      [`POST /calls/${call.callId}/hold`]: refusal(503, 'unavailable'),
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderWithState(<CallScreen />, inCall(), { connections, api });
    fireEvent.click(screen.getByRole('button', { name: 'Hold' }));
    await screen.findByRole('button', { name: 'Resume' });
    expect(presences.map((p) => p.state)).toEqual(['CallOnHold']);
    expect(setOnHold).toHaveBeenCalledWith(true);
    expect(screen.queryByRole('alert')).toBeNull();
    await vi.waitFor(() =>
      expect(warn).toHaveBeenCalledWith('could not record the hold', expect.anything()),
    );
    warn.mockRestore();
  });

  it("ends the call with the media's quality report, sent once and measured before the end", async () => {
    const { connections, close, qualityReport } = liveConnections();
    const QUALITY = `PUT /calls/${call.callId}/quality`;
    const END = `POST /calls/${call.callId}/end`;
    const { api, requests } = fakeApi({
      [QUALITY]: { body: undefined },
      [END]: answer({
        callId: call.callId,
        status: 'ended',
        callMethod: 'mediaServer',
        queue: null,
        agentJabberUsername: 'staff-1',
        transfer: null,
      }),
    });
    connections.chat = {
      ...connections.chat,
      leaveRoom: async () => undefined,
    } as unknown as ChatSession;
    const { store } = renderWithState(<CallScreen />, inCall(), { connections, api });
    fireEvent.click(screen.getByRole('button', { name: 'End call' }));
    await vi.waitFor(() => expect(close).toHaveBeenCalled());
    expect(store.getState().call.phase).toBe('ended');
    // The wrap-up that follows asks for the company's outcomes: not the end's business.
    expect(requests.filter((request) => !request.route.endsWith('/outcome-codes'))).toEqual([
      { route: QUALITY, body: figures },
      { route: END, body: { reason: 'completed' } },
    ]);
    expect(qualityReport).toHaveBeenCalledTimes(1);
    expect(qualityReport.mock.invocationCallOrder[0]).toBeLessThan(
      close.mock.invocationCallOrder[0] ?? 0,
    );
  });

  it('saves the notes on the call', async () => {
    const { api, requests } = fakeApi({ [`PUT /calls/${call.callId}/notes`]: { body: undefined } });
    renderWithState(<CallScreen />, inCall(), { api });
    fireEvent.change(screen.getByLabelText('Notes'), { target: { value: 'Wants a refund' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save notes' }));
    expect(await screen.findByText('Notes saved')).toBeTruthy();
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
