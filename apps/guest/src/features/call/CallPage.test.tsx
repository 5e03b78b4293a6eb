import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { company, renderWithState } from '../../test/render.tsx';
import { callSlice, type CallState } from './callSlice.ts';
import { CallPage } from './CallPage.tsx';
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
    expect(screen.getByText('Estimated wait: about 3 min.')).toBeTruthy();
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
});
