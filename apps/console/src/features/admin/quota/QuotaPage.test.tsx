import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { adminApi } from '../../../test/adminApi.ts';
import { answer, clockCompany, renderRoute, signedIn, zoeLogin } from '../../../test/render.tsx';

afterEach(cleanup);

const quota = (monthlyCallQuota: number | null) => ({
  monthlyCallQuota,
  usedThisMonth: 120,
  monthStartedAt: '2026-03-01T00:00:00.000Z',
  timeZone: 'Europe/London',
});

describe('the monthly calls page', () => {
  it('shows this month’s use against the limit in words and as a bar, and saves a new limit', async () => {
    const server = adminApi({
      'GET /company/12': answer(clockCompany),
      'GET /company/12/quota': answer(quota(500)),
      'PUT /company/12/quota': answer(quota(null)),
    });
    renderRoute('/console/admin/quota', signedIn(zoeLogin), { api: server.api });
    expect(await screen.findByText('120 of 500 calls used this month')).toBeTruthy();
    const bar = screen.getByRole('meter', { name: 'Use this month' });
    expect(bar.getAttribute('value')).toBe('120');
    expect(bar.getAttribute('max')).toBe('500');

    fireEvent.change(screen.getByLabelText('Calls a month'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save the limit' }));
    expect(screen.getByText('Type a whole number of calls, 0 or more.')).toBeTruthy();
    expect(server.writes()).toEqual([]);

    fireEvent.click(screen.getByLabelText('No limit'));
    server.answers['GET /company/12/quota'] = answer(quota(null));
    fireEvent.click(screen.getByRole('button', { name: 'Save the limit' }));
    expect((await screen.findByTestId('outcome')).textContent).toBe(
      'Guests may now start any number of calls.',
    );
    expect(screen.getByText('120 calls this month, no limit')).toBeTruthy();
    expect(server.writes()).toEqual([
      { route: 'PUT /company/12/quota', body: { monthlyCallQuota: null }, ifMatch: 1 },
    ]);
  });
});
