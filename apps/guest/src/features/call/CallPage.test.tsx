import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { company, renderWithState } from '../../test/render.tsx';
import { callSlice, type CallState } from './callSlice.ts';
import { chatSlice } from '../chat/chatSlice.ts';
import { CallPage } from './CallPage.tsx';
import { CallTimer, formatDuration } from './controls.tsx';
import { WaitingPage } from './WaitingPage.tsx';

const call = (overrides: Partial<CallState>): CallState => ({
  ...callSlice.getInitialState(),
  ...overrides,
});
const feed = {
  janusId: 'f1',
  display: 'staff-1',
  onlyAudio: false,
  audioMuted: false,
  videoMuted: false,
};

afterEach(cleanup);

describe('waiting stage', () => {
  it('shows the place in the queue and the estimate once both connections are up', () => {
    renderWithState(<WaitingPage />, {
      company: { details: company({ waitingMsg: 'Hang tight!' }) },
      call: call({
        connection: { chat: 'connected', media: 'connected' },
        queue: { position: 3, waiting: 4, estimatedWaitMs: 150_000 },
      }),
    });
    expect(screen.getByText('Hang tight!')).toBeTruthy();
    expect(screen.getByText('You are number 3 in line.')).toBeTruthy();
    expect(screen.getByText('Estimated wait: about 3 minutes.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel the call' })).toBeTruthy();
  });

  it('says it is setting up while the connections are not ready', () => {
    renderWithState(<WaitingPage />, { company: { details: company() }, call: call({}) });
    expect(screen.getByText('Setting up your call…')).toBeTruthy();
    expect(screen.queryByText(/in line/)).toBeNull();
  });
});

describe('call stage', () => {
  it('shows the hold page with the company’s texts while on hold', () => {
    renderWithState(<CallPage />, {
      company: {
        details: company({ holdPageText: 'One moment please.', videoOnHoldText: 'Video paused.' }),
      },
      call: call({ onHold: true, feeds: [feed], peerCall: 'Resumed', agent: 'staff-1' }),
    });
    const hold = screen.getByTestId('hold-page');
    expect(hold.textContent).toContain('You are on hold');
    expect(hold.textContent).toContain('One moment please.');
    expect(hold.textContent).toContain('Video paused.');
  });

  it('shows the recording notice, the quality and the reconnecting state', () => {
    renderWithState(<CallPage />, {
      company: {
        details: company({ recordCalls: true, recordAlertText: 'Recorded for training.' }),
      },
      call: call({
        feeds: [feed],
        connection: { chat: 'connected', media: 'reconnecting' },
        quality: { send: null, receive: { kbps: 500, lossPercent: 6, rttMs: 120, level: 'poor' } },
      }),
    });
    expect(screen.getByTestId('recording-notice').textContent).toContain('Recorded for training.');
    expect(screen.getByRole('alert').textContent).toBe('Connection lost. Reconnecting…');
    expect(screen.getByTestId('call-quality').textContent).toBe('Connection: poor');
  });

  it("shows no recording notice when the call's room does not record (the guest declined)", () => {
    renderWithState(<CallPage />, {
      company: { details: company({ recordCalls: true, recordingOptional: true }) },
      call: call({ feeds: [feed], recorded: false }),
    });
    expect(screen.queryByTestId('recording-notice')).toBeNull();
  });

  it('asks before ending the call, and Escape keeps the call', () => {
    renderWithState(<CallPage />, {
      company: { details: company() },
      call: call({ feeds: [feed] }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'End call' }));
    const dialog = screen.getByRole('alertdialog', { name: 'End this call?' });
    expect(document.activeElement?.textContent).toBe('Stay in the call');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('a voice call shows the avatar, not a video', () => {
    renderWithState(<CallPage />, {
      company: { details: company() },
      call: call({ callType: 'voice', feeds: [feed] }),
    });
    expect(screen.getByTestId('remote-avatar').textContent).toContain('Voice call');
    expect(screen.queryByTestId('remote-video')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Turn camera off' })).toBeNull();
  });

  it('puts every control of a video call in one row, each named', () => {
    renderWithState(<CallPage />, {
      company: { details: company({ flipCamera: true }) },
      call: call({ feeds: [feed], agent: 'staff-1' }),
    });
    const row = screen.getByRole('toolbar', { name: 'Call with Acme Support' });
    expect(
      within(row)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual([
      'Mute microphone',
      'Turn camera off',
      'Switch camera',
      'Devices',
      'Chat',
      'End call',
    ]);
    expect(screen.getByTestId('remote-video')).toBeTruthy();
    expect(screen.getByTestId('self-view').dataset.corner).toBe('bottom-end');
  });

  it('names a muted microphone and a camera turned off by what pressing them does', () => {
    renderWithState(<CallPage />, {
      company: { details: company() },
      call: call({ feeds: [feed], localAudioMuted: true, localVideoMuted: true }),
    });
    expect(screen.getByRole('button', { name: 'Unmute microphone' }).className).toContain(
      'control-off',
    );
    expect(screen.getByRole('button', { name: 'Turn camera on' }).className).toContain(
      'control-off',
    );
    // No one offers to flip a camera the company does not let guests flip.
    expect(screen.queryByRole('button', { name: 'Switch camera' })).toBeNull();
  });

  it('counts unread messages on the chat control and opens the chat as a panel over the call', () => {
    const incoming = (id: string, message: string) => ({
      id,
      direction: 'in' as const,
      at: '2026-11-26T10:00:00.000Z',
      delivery: 'delivered' as const,
      payload: { sender: 'AGENT' as const, to: 'guest-1', from: 'staff-1', message },
    });
    renderWithState(<CallPage />, {
      company: { details: company() },
      call: call({ feeds: [feed], agent: 'staff-1', agentName: 'Ada' }),
      chat: {
        ...chatSlice.getInitialState(),
        unreadMessages: 2,
        chatMessages: [incoming('m2', 'Are you there?'), incoming('m1', 'Hello!')],
      },
    });
    const toggle = screen.getByTestId('chat-toggle');
    expect(toggle.getAttribute('aria-label')).toBe('Chat (2 unread messages)');
    expect(screen.getByTestId('unread-badge').textContent).toBe('2');

    fireEvent.click(toggle);
    const panel = screen.getByRole('region', { name: 'Chat' });
    expect(screen.getByTestId('stage-ongoing').dataset.chatOpen).toBe('true');
    expect(screen.queryByTestId('unread-badge')).toBeNull();
    // Oldest first, as people read a conversation; the picture stays on the page.
    expect(
      within(panel)
        .getAllByRole('listitem')
        .map((item) => item.querySelector('p')?.textContent),
    ).toEqual(['Hello!', 'Are you there?']);
    expect(screen.getByTestId('remote-video')).toBeTruthy();
    // Signed by the agent who answered, by its first name.
    expect(within(panel).getAllByText('Ada')).toHaveLength(2);

    fireEvent.keyDown(screen.getByLabelText('Message'), { key: 'Escape' });
    expect(screen.queryByRole('region', { name: 'Chat' })).toBeNull();
    expect(document.activeElement).toBe(toggle);
  });

  it('opens the devices over the call and closes them with their close button', async () => {
    // The browser's devices, as a browser lists them once the guest allowed the camera.
    const device = (kind: MediaDeviceKind, deviceId: string, label: string) =>
      ({ kind, deviceId, label, groupId: 'g' }) as MediaDeviceInfo;
    Object.defineProperty(navigator, 'mediaDevices', {
      configurable: true,
      value: {
        enumerateDevices: async () => [
          device('videoinput', 'cam-1', 'Front camera'),
          device('audioinput', 'mic-1', 'Headset microphone'),
        ],
      },
    });
    renderWithState(<CallPage />, {
      company: { details: company() },
      call: call({ feeds: [feed], deviceConfigOpen: true }),
    });
    expect(screen.getByRole('button', { name: 'Devices' }).getAttribute('aria-expanded')).toBe(
      'true',
    );
    const panel = screen.getByRole('region', { name: 'Devices' });
    expect(await within(panel).findByRole('option', { name: 'Headset microphone' })).toBeTruthy();
    expect(within(panel).getByRole('option', { name: 'Front camera' })).toBeTruthy();
    expect(within(panel).getByLabelText('Volume')).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: 'Close the devices' }));
    expect(screen.queryByRole('region', { name: 'Devices' })).toBeNull();
  });

  it('a voice call shows the company, the time of the call and every control it offers', () => {
    renderWithState(<CallPage />, {
      company: { details: company({ flipCamera: true }) },
      call: call({ callType: 'voice', feeds: [feed] }),
    });
    const avatar = screen.getByTestId('remote-avatar');
    expect(avatar.textContent).toContain('Acme Support');
    expect(within(avatar).getByTestId('call-timer').textContent).toBe('Call duration 00:00');
    const row = screen.getByRole('toolbar');
    expect(
      within(row)
        .getAllByRole('button')
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual(['Mute microphone', 'Devices', 'Chat', 'End call']);
  });
});

describe('the agent on the call screen', () => {
  it('names the agent who answered by its first name, once the API gave it', () => {
    renderWithState(<CallPage />, {
      company: { details: company() },
      call: call({ callType: 'voice', feeds: [feed], agent: 'staff-1', agentName: 'Ada' }),
    });
    const avatar = screen.getByTestId('remote-avatar');
    expect(within(avatar).getByTestId('agent-name').textContent).toBe('Ada');
    expect(avatar.querySelector('.call-avatar-initial')?.textContent).toBe('A');
  });

  it('ignores a name that comes for another agent, and forgets it on a transfer', () => {
    const state = callSlice.reducer(
      call({ agent: 'staff-2' }),
      callSlice.actions.agentNamed({ agent: 'staff-1', name: 'Ada' }),
    );
    expect(state.agentName).toBeNull();
    const named = callSlice.reducer(
      state,
      callSlice.actions.agentNamed({ agent: 'staff-2', name: 'Bo' }),
    );
    expect(named.agentName).toBe('Bo');
    expect(
      callSlice.reducer(
        named,
        callSlice.actions.callTransferred({ toAgent: null, toCategoryId: 2 }),
      ).agentName,
    ).toBeNull();
  });
});

describe('call duration', () => {
  it('reads minutes and seconds, and hours once there are any', () => {
    expect(formatDuration(0)).toBe('00:00');
    expect(formatDuration(65_400)).toBe('01:05');
    expect(formatDuration(3_600_000 + 62_000)).toBe('1:01:02');
  });

  it('shows the time so far at once when it appears mid-call (after a hold), never 00:00 first', () => {
    renderWithState(<CallTimer since={Date.now() - 65_400} />, {});
    expect(screen.getByTestId('call-timer').textContent).toBe('Call duration 01:05');
  });
});
