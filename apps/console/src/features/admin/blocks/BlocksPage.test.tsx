import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiRequestError } from '@frontdesk/protocol';
import { adminApi } from '../../../test/adminApi.ts';
import { answer, clockCompany, renderRoute, signedIn, zoeLogin } from '../../../test/render.tsx';

afterEach(cleanup);

const CALL = 'gabcdefghijklmnopqrstuvwxy--k3j2';
const blocked = {
  id: 7,
  fingerprint: 'a1b2c3d4e5f60718293a',
  reason: 'Abusive',
  callId: CALL,
  createdAt: '2026-03-02T09:30:00.000Z',
};

describe('the block list page', () => {
  it('blocks the guest of a call by its id, and unblocks an entry, both with If-Match', async () => {
    const server = adminApi({
      'GET /company/12': answer(clockCompany),
      'GET /company/12/blocks': answer([]),
      'POST /company/12/blocks': answer(blocked),
      'DELETE /company/12/blocks/7': { body: undefined },
    });
    renderRoute('/console/admin/blocks', signedIn(zoeLogin), { api: server.api });
    expect(await screen.findByText('Nobody is blocked.')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Call id'), { target: { value: 'nonsense' } });
    fireEvent.click(screen.getByRole('button', { name: 'Block' }));
    expect(screen.getByLabelText('Call id').getAttribute('aria-invalid')).toBe('true');
    expect(server.writes()).toEqual([]);

    fireEvent.change(screen.getByLabelText('Call id'), { target: { value: CALL } });
    fireEvent.change(screen.getByLabelText('Reason (optional)'), { target: { value: 'Abusive' } });
    server.answers['GET /company/12/blocks'] = answer([blocked]);
    server.answers['GET /company/12'] = answer({ ...clockCompany, version: 2 });
    fireEvent.click(screen.getByRole('button', { name: 'Block' }));
    expect((await screen.findByTestId('outcome')).textContent).toBe(
      `The guest of call ${CALL} is blocked.`,
    );
    const row = screen.getByTestId('block-row');
    expect(within(row).getByText('Abusive')).toBeTruthy();
    expect(within(row).getByText(CALL)).toBeTruthy();

    server.answers['GET /company/12/blocks'] = answer([]);
    fireEvent.click(within(row).getByRole('button', { name: 'Unblock browser a1b2c3d4e5…' }));
    expect(await screen.findByText('Nobody is blocked.')).toBeTruthy();
    expect(server.writes()).toEqual([
      { route: 'POST /company/12/blocks', body: { callId: CALL, reason: 'Abusive' }, ifMatch: 1 },
      { route: 'DELETE /company/12/blocks/7', body: undefined, ifMatch: 2 },
    ]);
  });

  it('shows at the field that a call is not the company’s (404 naming callId)', async () => {
    const server = adminApi({
      'GET /company/12': answer(clockCompany),
      'GET /company/12/blocks': answer([]),
      'POST /company/12/blocks': {
        refuse: new ApiRequestError(404, 'call_not_found', `Company 12 has no call ${CALL}.`, {
          callId: 'is not a call of the company',
        }),
      },
    });
    renderRoute('/console/admin/blocks', signedIn(zoeLogin), { api: server.api });
    fireEvent.change(await screen.findByLabelText('Call id'), { target: { value: CALL } });
    fireEvent.click(screen.getByRole('button', { name: 'Block' }));
    expect(await screen.findByText('is not a call of the company')).toBeTruthy();
    expect(screen.getByLabelText('Call id').getAttribute('aria-invalid')).toBe('true');
  });
});
