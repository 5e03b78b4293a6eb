import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  answer,
  fakeApi,
  refusal,
  renderWithState,
  signedIn,
  zoeLogin,
} from '../../test/render.tsx';
import { BlockGuestButton } from './BlockGuestButton.tsx';

afterEach(cleanup);

const CALL = 'gabcdefghijklmnopqrstuvwxy--k3j2';
const block = {
  id: 7,
  fingerprint: 'a1b2c3d4e5f60718293a',
  reason: 'Abusive',
  callId: CALL,
  createdAt: '2026-03-02T09:30:00.000Z',
};

describe('block this guest, in a call', () => {
  it('is not offered to agents', () => {
    renderWithState(<BlockGuestButton callId={CALL} />, signedIn());
    expect(screen.queryByRole('button', { name: 'Block this guest' })).toBeNull();
  });

  it('asks an admin first, then blocks the call’s guest with the reason given', async () => {
    const { api, requests } = fakeApi({ 'POST /company/12/blocks': answer(block) });
    renderWithState(<BlockGuestButton callId={CALL} />, signedIn(zoeLogin), { api });
    fireEvent.click(screen.getByRole('button', { name: 'Block this guest' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Block this guest?' });
    const reason = within(dialog).getByLabelText('Reason (optional)');
    expect(document.activeElement).toBe(reason);
    fireEvent.change(reason, { target: { value: 'Abusive' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Block' }));
    expect(await screen.findByText('The guest is blocked.')).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(requests).toEqual([
      { route: 'POST /company/12/blocks', body: { callId: CALL, reason: 'Abusive' } },
    ]);
  });

  it('says why when the API refuses', async () => {
    const { api } = fakeApi({
      'POST /company/12/blocks': refusal(
        403,
        'admins_only',
        'Only the company’s admins may do this.',
      ),
    });
    renderWithState(<BlockGuestButton callId={CALL} />, signedIn(zoeLogin), { api });
    fireEvent.click(screen.getByRole('button', { name: 'Block this guest' }));
    fireEvent.click(screen.getByRole('button', { name: 'Block' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The guest could not be blocked: Only the company’s admins may do this.',
    );
  });
});
