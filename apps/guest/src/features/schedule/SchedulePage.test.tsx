import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from '@testing-library/react';
import { company, renderWithState } from '../../test/render.tsx';
import { SchedulePage } from './SchedulePage.tsx';

const schedule = {
  timeZone: 'Europe/London',
  openNow: false,
  hours: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, opens: '08:00', closes: '20:00' })),
};

afterEach(cleanup);

describe('schedule stage', () => {
  it('shows the company message, the timetable with its zone and when it opens next', () => {
    renderWithState(<SchedulePage now={new Date('2026-11-21T12:00:00Z')} />, {
      company: { details: company({ schedule, outOfHoursMsg: 'Back on Monday!' }) },
    });
    expect(screen.getByRole('heading', { name: 'We are closed right now' })).toBeTruthy();
    expect(screen.getByText('Back on Monday!')).toBeTruthy();
    const table = screen.getByRole('table', { name: /Opening hours \(Europe\/London\)/ });
    expect(within(table).getByRole('row', { name: /Monday 08:00–20:00/ })).toBeTruthy();
    expect(within(table).getByRole('row', { name: /Saturday Closed/ })).toBeTruthy();
    expect(screen.getByTestId('next-opening').textContent).toMatch(/^We open again Monday/);
  });

  it('hides the timetable when the company asks (hideTimetable)', () => {
    renderWithState(<SchedulePage />, {
      company: { details: company({ schedule, hideTimetable: true }) },
    });
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText(/Our team is not available/)).toBeTruthy();
  });

  it('speaks Arabic for an Arabic company', () => {
    renderWithState(<SchedulePage />, {
      company: { details: company({ schedule, language: 'ar' }) },
    });
    expect(screen.getByRole('heading', { name: 'نحن مغلقون الآن' })).toBeTruthy();
    expect(screen.getByRole('row', { name: /الاثنين/ })).toBeTruthy();
  });
});
