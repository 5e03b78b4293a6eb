import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from '@testing-library/react';
import { company, renderWithState } from '../../test/render.tsx';
import { SchedulePage } from './SchedulePage.tsx';

const schedule = {
  timeZone: 'Europe/London',
  openNow: false,
  hours: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, opens: '08:00', closes: '20:00' })),
  exceptions: [],
};

const christmas = {
  ...schedule,
  exceptions: [
    { date: '2026-12-24', label: 'Christmas Eve', hours: [{ opens: '09:00', closes: '13:00' }] },
    { date: '2026-12-25', label: 'Christmas Day', hours: [] },
  ],
};

/** The instant the next-opening line names (its text is in the guest's own zone). */
const nextOpeningInstant = () =>
  screen.getByTestId('next-opening').querySelector('time')?.getAttribute('datetime');

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

  it('opens next at a special date’s own hours and lists the coming special dates', () => {
    // Wednesday 23 December 2026, 21:00 in London: closed until Christmas Eve's 09:00, not 08:00.
    renderWithState(<SchedulePage now={new Date('2026-12-23T21:00:00Z')} />, {
      company: { details: company({ schedule: christmas }) },
    });
    expect(nextOpeningInstant()).toBe('2026-12-24T09:00:00.000Z');
    const dates = screen.getByRole('table', { name: 'Special dates' });
    expect(within(dates).getByRole('row', { name: /24.*Christmas Eve 09:00–13:00/ })).toBeTruthy();
    expect(within(dates).getByRole('row', { name: /25.*Christmas Day Closed/ })).toBeTruthy();
  });

  it('skips a holiday to the next opening, leaving past dates out', () => {
    // Christmas Eve after 13:00: Christmas Day is closed, then the weekend; Monday 28 opens.
    renderWithState(<SchedulePage now={new Date('2026-12-24T14:00:00Z')} />, {
      company: { details: company({ schedule: christmas }) },
    });
    expect(nextOpeningInstant()).toBe('2026-12-28T08:00:00.000Z');
    const dates = screen.getByRole('table', { name: 'Special dates' });
    expect(within(dates).getAllByRole('row')).toHaveLength(2);
    cleanup();
    renderWithState(<SchedulePage now={new Date('2026-12-25T14:00:00Z')} />, {
      company: { details: company({ schedule: christmas }) },
    });
    expect(
      within(screen.getByRole('table', { name: 'Special dates' })).getAllByRole('row'),
    ).toHaveLength(1);
  });

  it('hides the timetable when the company asks (hideTimetable)', () => {
    renderWithState(<SchedulePage />, {
      company: { details: company({ schedule: christmas, hideTimetable: true }) },
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
