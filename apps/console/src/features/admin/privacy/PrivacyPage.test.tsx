import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RETENTION_PERIODS } from '@frontdesk/protocol';
import { adminApi } from '../../../test/adminApi.ts';
import { answer, clockCompany, renderRoute, signedIn, zoeLogin } from '../../../test/render.tsx';

afterEach(cleanup);

const settings = (recordings: number) => ({
  periods: { ...DEFAULT_RETENTION_PERIODS, recordings },
  defaults: DEFAULT_RETENTION_PERIODS,
});
const run = {
  runAt: '2026-11-26T03:00:00.000Z',
  deleted: {
    recordings: 4,
    uploads: 12,
    welcomeAnswers: 0,
    ratingAnswers: 0,
    callBugs: 0,
    guests: 2,
    auditEntries: 0,
  },
};

describe('the privacy & retention page', () => {
  it('shows each period with its default, refuses a bad one before sending, saves a change', async () => {
    const server = adminApi({
      'GET /company/12': answer(clockCompany),
      'GET /company/12/retention': answer(settings(90)),
      'GET /company/12/retention/runs': answer([]),
      'PUT /company/12/retention': answer(settings(30)),
    });
    renderRoute('/console/admin/privacy', signedIn(zoeLogin), { api: server.api });
    const recordings = (await screen.findByLabelText('Call recordings')) as HTMLInputElement;
    expect(recordings.value).toBe('90');
    expect(screen.getByTestId('retention-recordings').textContent).toContain('Default: 90 days.');
    expect(screen.getByTestId('retention-runs-empty').textContent).toBe(
      'No run yet: the first runs tonight at 03:00 UTC.',
    );

    fireEvent.change(recordings, { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save the periods' }));
    expect(
      within(screen.getByTestId('retention-recordings')).getByText(
        'Enter a whole number of days from 1 to 3650.',
      ),
    ).toBeTruthy();
    expect(recordings.getAttribute('aria-invalid')).toBe('true');
    expect(server.writes()).toEqual([]);

    fireEvent.change(recordings, { target: { value: '30' } });
    server.answers['GET /company/12/retention'] = answer(settings(30));
    server.answers['GET /company/12/retention/runs'] = answer([run]);
    fireEvent.click(screen.getByRole('button', { name: 'Save the periods' }));
    expect((await screen.findByTestId('outcome')).textContent).toBe(
      "The retention periods are saved. Tonight's run applies them.",
    );
    expect(server.writes()).toEqual([
      {
        route: 'PUT /company/12/retention',
        body: { ...DEFAULT_RETENTION_PERIODS, recordings: 30 },
        ifMatch: 1,
      },
    ]);
    const shown = await screen.findByTestId('retention-run');
    expect(within(shown).getByText('4 deleted')).toBeTruthy();
    expect(within(shown).getByText('12 deleted')).toBeTruthy();
  });
});
