import { describe, expect, it } from 'vitest';
import { hoursByWeekday, nextOpening } from './timetable.ts';

const weekdays = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, opens: '08:00', closes: '20:00' }));

describe('nextOpening', () => {
  it('finds the same evening’s opening in the company’s zone', () => {
    // Monday 2026-11-23 06:00 UTC is 06:00 in London (winter time): it opens at 08:00 London.
    const schedule = { timeZone: 'Europe/London', hours: weekdays, openNow: false };
    expect(nextOpening(schedule, new Date('2026-11-23T06:00:00Z'))?.toISOString()).toBe(
      '2026-11-23T08:00:00.000Z',
    );
  });

  it('skips the weekend to Monday', () => {
    // Saturday 2026-11-21 12:00 in New York (UTC-5): next opening Monday 08:00 = 13:00 UTC.
    const schedule = { timeZone: 'America/New_York', hours: weekdays, openNow: false };
    expect(nextOpening(schedule, new Date('2026-11-21T17:00:00Z'))?.toISOString()).toBe(
      '2026-11-23T13:00:00.000Z',
    );
  });

  it('keeps local opening time across a daylight-saving change', () => {
    // London moves to summer time on Sunday 2026-03-29; Monday 08:00 is then 07:00 UTC.
    const schedule = { timeZone: 'Europe/London', hours: weekdays, openNow: false };
    expect(nextOpening(schedule, new Date('2026-03-28T12:00:00Z'))?.toISOString()).toBe(
      '2026-03-30T07:00:00.000Z',
    );
  });

  it('answers null for a timetable without hours', () => {
    expect(nextOpening({ timeZone: 'UTC', hours: [], openNow: false }, new Date())).toBeNull();
  });
});

describe('hoursByWeekday', () => {
  it('lists all seven days, empty where closed', () => {
    const days = hoursByWeekday(weekdays);
    expect([...days.keys()]).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(days.get(6)).toEqual([]);
    expect(days.get(1)).toEqual([{ weekday: 1, opens: '08:00', closes: '20:00' }]);
  });
});
