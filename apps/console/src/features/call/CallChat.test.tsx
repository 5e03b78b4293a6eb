import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { GuestContext } from '@frontdesk/protocol';
import { answer, claimedCall, fakeApi, renderWithState, signedIn } from '../../test/render.tsx';
import { chatSlice, conversationOpened } from '../chat/chatSlice.ts';
import { GuestContextPanel } from '../guestContext/GuestContextPanel.tsx';
import { CallChat } from './CallChat.tsx';
import { CallTitle } from './CallTitle.tsx';
import { callSlice } from './callSlice.ts';

afterEach(cleanup);

const call = claimedCall('h', { guestJabberUsername: 'g12-visitor-2k2ltm' });
const context: GuestContext = {
  callId: call.callId,
  guestUsername: call.guestUsername,
  name: 'Hana Hold',
  answers: [],
  previousCallCount: 0,
  previousCalls: [],
  location: null,
  client: null,
};

/** The call screen's heading, the guest's panel (which asks for its details) and the chat. */
function renderCallWithChat(peer: string) {
  const { api } = fakeApi({
    [`GET /calls/${call.callId}/guest-context`]: answer(context),
    'GET /company/12/canned-replies': answer([]),
  });
  renderWithState(
    <>
      <h2>
        <CallTitle call={call} />
      </h2>
      <GuestContextPanel callId={call.callId} guestNick={call.guestJabberUsername} />
      <CallChat />
    </>,
    {
      ...signedIn(),
      call: { ...callSlice.getInitialState(), phase: 'active', call },
      chat: chatSlice.reducer(undefined, conversationOpened(peer)),
    },
    { api },
  );
}

describe('the chat beside a call', () => {
  it('names the call’s guest as the call’s heading does: its label, then its name', async () => {
    renderCallWithChat(call.guestJabberUsername);
    expect(screen.getByRole('heading', { name: 'Chat with Guest 2K2LTM' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Chat with Hana Hold' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Call with Hana Hold' })).toBeTruthy();
    expect(screen.getByRole('log', { name: 'Chat with Hana Hold' })).toBeTruthy();
  });

  it('names another guest than the call’s by its label', async () => {
    renderCallWithChat('g12-visitor-777aaa');
    expect(await screen.findByRole('heading', { name: 'Call with Hana Hold' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Chat with Guest 777AAA' })).toBeTruthy();
  });
});
