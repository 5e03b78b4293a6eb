import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answer, fakeApi } from '@frontdesk/protocol/testing';
import { company, offlineServices, renderWithState } from '../test/render.tsx';
import { guestAuthSlice } from '../features/guestAuth/guestAuthSlice.ts';
import { ErrorBoundary } from './ErrorBoundary.tsx';

afterEach(cleanup);

const GUEST = `g${'b'.repeat(25)}`;

function Broken(): never {
  throw new TypeError('stage exploded');
}

describe('error boundary', () => {
  it('shows a friendly page instead of a white one and files a call-bug report', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { api, requests } = fakeApi({ 'POST /call-bug/by-guest': answer({ id: 1 }) });
    renderWithState(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
      {
        company: { details: company() },
        guestAuth: {
          ...guestAuthSlice.getInitialState(),
          username: GUEST,
          access_token: 'token-1',
        },
      },
      offlineServices({ api }),
    );
    expect(
      screen.getByRole('heading', { name: 'Sorry, something broke on our side' }),
    ).toBeTruthy();
    expect(document.activeElement?.id).toBe('crash-title');
    expect(await screen.findByText(/We have sent a report to our team/)).toBeTruthy();
    expect(requests).toHaveLength(1);
    const body = requests[0]?.body as {
      call_id: string;
      guest_id: string;
      guest_state: { crash: { message: string } };
    };
    // A crash outside a call is filed under a new call id of the guest's own.
    expect(body.call_id.startsWith(`${GUEST}--`)).toBe(true);
    expect(body.guest_id).toBe(GUEST);
    expect(body.guest_state.crash.message).toBe('TypeError: stage exploded');
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeTruthy();
  });

  it('says so when the guest has no login to file a report with', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderWithState(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
      { company: { details: company() } },
    );
    expect(await screen.findByText('We could not send a report this time.')).toBeTruthy();
  });
});
