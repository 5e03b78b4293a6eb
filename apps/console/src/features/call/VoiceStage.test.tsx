import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { GuestContext } from '@frontdesk/protocol';
import {
  answer,
  fakeApi,
  renderWithState,
  signedIn,
  claimedCall,
  roomAccess,
} from '../../test/render.tsx';
import { GuestContextPanel } from '../guestContext/GuestContextPanel.tsx';
import { CallScreen } from './CallScreen.tsx';
import { callSlice } from './callSlice.ts';
import { initialsOf } from './VoiceStage.tsx';

afterEach(cleanup);

const GUEST = `g${'v'.repeat(25)}`;
const call = claimedCall('v', {
  callId: `${GUEST}--voice1`,
  reportId: 8,
  callType: 'voice',
  room: roomAccess({ room: `${GUEST}--voice1` }),
});
const context: GuestContext = {
  callId: call.callId,
  guestUsername: GUEST,
  name: 'Grace Hopper',
  answers: [],
  previousCallCount: 0,
  previousCalls: [],
  location: null,
  client: null,
};

describe('a voice call', () => {
  it('shows the guest’s initials, name and the call’s time, and no video at all', async () => {
    const { api } = fakeApi({ [`GET /calls/${call.callId}/guest-context`]: answer(context) });
    const { container } = renderWithState(
      <>
        <CallScreen />
        <GuestContextPanel callId={call.callId} guestNick={call.guestJabberUsername} />
      </>,
      {
        ...signedIn(),
        call: { ...callSlice.getInitialState(), phase: 'active', call, guestJoined: true },
      },
      { api },
    );
    const stage = screen.getByRole('group', { name: 'Voice call with Guest ABC' });
    expect(await screen.findByRole('group', { name: 'Voice call with Grace Hopper' })).toBe(stage);
    expect(stage.textContent).toContain('GH');
    expect(screen.getByRole('heading', { name: 'Call with Grace Hopper' })).toBeTruthy();
    expect(screen.getByRole('timer', { name: 'Call time' }).textContent).toMatch(/0:0\d/);
    expect(container.querySelectorAll('video')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'Turn camera off' })).toBeNull();
  });
});

describe('initialsOf', () => {
  it('takes the first and last words’ first letters, one for a single word', () => {
    expect(initialsOf('Grace Brewster Hopper')).toBe('GH');
    expect(initialsOf('  ada  ')).toBe('A');
    expect(initialsOf('علي حسن')).toBe('عح');
    expect(initialsOf('')).toBe('');
  });
});
