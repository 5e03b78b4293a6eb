import { describe, expect, it } from 'vitest';
import { isOpenAt, wallClock } from './schedule.ts';

const weekdays = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, opens: '08:00', closes: '20:00' }));

describe('wallClock', () => {
  it('reads the weekday and time in the zone, not in UTC', () => {
    // Monday 2026-01-05 23:30 UTC is already Tuesday 08:30 in Tokyo.
    expect(wallClock(new Date('2026-01-05T23:30:00Z'), 'Asia/Tokyo')).toEqual({
      weekday: 2,
      time: '08:30',
    });
    expect(wallClock(new Date('2026-01-11T00:05:00Z'), 'UTC')).toEqual({
      weekday: 7,
      time: '00:05',
    });
  });
});

describe('isOpenAt', () => {
  it('is open inside the hours of a weekday and closed at the weekend', () => {
    expect(isOpenAt(weekdays, 'Europe/London', new Date('2026-01-07T12:00:00Z'))).toBe(true);
    expect(isOpenAt(weekdays, 'Europe/London', new Date('2026-01-10T12:00:00Z'))).toBe(false);
  });

  it('opens at the opening minute and closes at the closing minute', () => {
    expect(isOpenAt(weekdays, 'UTC', new Date('2026-01-07T08:00:00Z'))).toBe(true);
    expect(isOpenAt(weekdays, 'UTC', new Date('2026-01-07T07:59:59Z'))).toBe(false);
    expect(isOpenAt(weekdays, 'UTC', new Date('2026-01-07T20:00:00Z'))).toBe(false);
  });

  it('follows daylight saving: 07:30 UTC is 08:30 in London in summer, 07:30 in winter', () => {
    expect(isOpenAt(weekdays, 'Europe/London', new Date('2026-07-08T07:30:00Z'))).toBe(true);
    expect(isOpenAt(weekdays, 'Europe/London', new Date('2026-01-07T07:30:00Z'))).toBe(false);
  });

  it('is never open without hours', () => {
    expect(isOpenAt([], 'UTC', new Date('2026-01-07T12:00:00Z'))).toBe(false);
  });
});
