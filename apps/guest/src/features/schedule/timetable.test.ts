import { describe, expect, it } from 'vitest';
import { hoursByWeekday, upcomingExceptions } from './timetable.ts';

const weekdays = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, opens: '08:00', closes: '20:00' }));

describe('hoursByWeekday', () => {
  it('lists all seven days, empty where closed', () => {
    const days = hoursByWeekday(weekdays);
    expect([...days.keys()]).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(days.get(6)).toEqual([]);
    expect(days.get(1)).toEqual([{ weekday: 1, opens: '08:00', closes: '20:00' }]);
  });
});

describe('upcomingExceptions', () => {
  it('keeps the dates from the company’s today on, in order', () => {
    const day = (date: string) => ({ date, label: null, hours: [] });
    const schedule = {
      timeZone: 'Asia/Tokyo',
      hours: weekdays,
      exceptions: [day('2026-12-31'), day('2026-12-24'), day('2026-12-23')],
      openNow: false,
    };
    // 2026-12-23 16:00 UTC is already 24 December in Tokyo.
    const dates = upcomingExceptions(schedule, new Date('2026-12-23T16:00:00Z')).map((e) => e.date);
    expect(dates).toEqual(['2026-12-24', '2026-12-31']);
  });
});
