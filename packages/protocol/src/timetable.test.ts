import { describe, expect, it } from 'vitest';
import type { OpeningHours, ScheduleException } from './company.ts';
import {
  addDays,
  isOpenAt,
  localDate,
  nextOpening,
  openingsBetween,
  type Timetable,
} from './timetable.ts';

const weekdays: OpeningHours[] = [1, 2, 3, 4, 5].map((weekday) => ({
  weekday,
  opens: '08:00',
  closes: '20:00',
}));

const timetable = (
  timeZone: string,
  hours: OpeningHours[],
  exceptions: ScheduleException[] = [],
): Timetable => ({ timeZone, hours, exceptions });

/** Whether `t` is open at each instant, by ISO string. */
const openAt = (t: Timetable, ...instants: string[]) =>
  instants.map((instant) => isOpenAt(t, new Date(instant)));

const next = (t: Timetable, now: string) => nextOpening(t, new Date(now))?.toISOString() ?? null;

describe('localDate and addDays', () => {
  it('read the date in the zone, not in UTC', () => {
    // Monday 2026-01-05 23:30 UTC is already Tuesday in Tokyo.
    expect(localDate(new Date('2026-01-05T23:30:00Z'), 'Asia/Tokyo')).toBe('2026-01-06');
    expect(localDate(new Date('2026-01-05T23:30:00Z'), 'America/New_York')).toBe('2026-01-05');
  });

  it('count days across months and years', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});

describe('isOpenAt: the week', () => {
  it('is open inside the hours of a weekday and closed at the weekend', () => {
    const london = timetable('Europe/London', weekdays);
    expect(openAt(london, '2026-01-07T12:00:00Z', '2026-01-10T12:00:00Z')).toEqual([true, false]);
  });

  it('opens at the opening minute and closes at the closing minute', () => {
    expect(
      openAt(
        timetable('UTC', weekdays),
        '2026-01-07T08:00:00Z',
        '2026-01-07T07:59:59Z',
        '2026-01-07T19:59:59Z',
        '2026-01-07T20:00:00Z',
      ),
    ).toEqual([true, false, true, false]);
  });

  it('reads the hours by the zone’s clock: 07:30 UTC is 08:30 in London in summer', () => {
    const london = timetable('Europe/London', weekdays);
    expect(openAt(london, '2026-07-08T07:30:00Z', '2026-01-07T07:30:00Z')).toEqual([true, false]);
  });

  it('keeps several openings a day apart', () => {
    const lunchBreak = timetable('UTC', [
      { weekday: 3, opens: '09:00', closes: '12:00' },
      { weekday: 3, opens: '13:00', closes: '17:00' },
    ]);
    expect(
      openAt(lunchBreak, '2026-01-07T11:00:00Z', '2026-01-07T12:30:00Z', '2026-01-07T16:00:00Z'),
    ).toEqual([true, false, true]);
  });

  it('is never open without openings', () => {
    expect(isOpenAt(timetable('UTC', []), new Date('2026-01-07T12:00:00Z'))).toBe(false);
  });
});

describe('isOpenAt: nights', () => {
  it('runs an opening whose closing is earlier into the next morning', () => {
    // Friday 2026-01-09 22:00 to Saturday 02:00.
    const bar = timetable('UTC', [{ weekday: 5, opens: '22:00', closes: '02:00' }]);
    expect(
      openAt(
        bar,
        '2026-01-09T21:59:00Z',
        '2026-01-09T23:00:00Z',
        '2026-01-10T01:59:00Z',
        '2026-01-10T02:00:00Z',
        // Friday's own small hours belong to Thursday's night, which there is none of.
        '2026-01-09T01:00:00Z',
      ),
    ).toEqual([false, true, true, false, false]);
  });

  it('runs Sunday night into Monday morning', () => {
    const sundayNight = timetable('UTC', [{ weekday: 7, opens: '23:00', closes: '03:00' }]);
    expect(openAt(sundayNight, '2026-01-12T02:00:00Z', '2026-01-12T04:00:00Z')).toEqual([
      true,
      false,
    ]);
  });

  it('closes 18:00–00:00 at midnight and keeps 00:00–00:00 open all day', () => {
    const evening = timetable('UTC', [{ weekday: 3, opens: '18:00', closes: '00:00' }]);
    expect(openAt(evening, '2026-01-07T23:59:00Z', '2026-01-08T00:00:00Z')).toEqual([true, false]);
    const allDay = timetable('UTC', [{ weekday: 3, opens: '00:00', closes: '00:00' }]);
    expect(
      openAt(allDay, '2026-01-07T00:00:00Z', '2026-01-07T23:59:59Z', '2026-01-08T00:00:00Z'),
    ).toEqual([true, true, false]);
  });
});

describe('isOpenAt: exceptions', () => {
  const christmas: ScheduleException[] = [
    { date: '2026-12-24', label: 'Christmas Eve', hours: [{ opens: '09:00', closes: '13:00' }] },
    { date: '2026-12-25', label: 'Christmas Day', hours: [] },
  ];

  it('closes a holiday all day and keeps a date’s own hours instead of its weekday’s', () => {
    // Thursday 24 and Friday 25 December 2026, London (winter: UTC).
    const london = timetable('Europe/London', weekdays, christmas);
    expect(
      openAt(
        london,
        '2026-12-24T08:30:00Z',
        '2026-12-24T10:00:00Z',
        '2026-12-24T14:00:00Z',
        '2026-12-25T12:00:00Z',
        '2026-12-28T12:00:00Z',
      ),
    ).toEqual([false, true, false, false, true]);
  });

  it('ends the night before a holiday at the holiday’s midnight', () => {
    const nights = timetable('UTC', [{ weekday: 4, opens: '22:00', closes: '02:00' }], christmas);
    // Thursday 2026-12-17's night runs to Friday 02:00; Christmas Eve's Thursday night is cut.
    expect(openAt(nights, '2026-12-18T01:00:00Z')).toEqual([true]);
    expect(openAt(nights, '2026-12-24T23:00:00Z', '2026-12-25T00:30:00Z')).toEqual([false, false]);
    const eveNight = timetable(
      'UTC',
      [],
      [
        { date: '2026-12-23', label: null, hours: [{ opens: '22:00', closes: '02:00' }] },
        { date: '2026-12-24', label: null, hours: [] },
      ],
    );
    expect(openAt(eveNight, '2026-12-23T23:30:00Z', '2026-12-24T00:30:00Z')).toEqual([true, false]);
  });

  it('runs an exception’s night into an ordinary next day', () => {
    const newYear = timetable('UTC', weekdays, [
      { date: '2026-12-31', label: 'New Year’s Eve', hours: [{ opens: '20:00', closes: '03:00' }] },
    ]);
    expect(openAt(newYear, '2027-01-01T02:30:00Z', '2027-01-01T03:00:00Z')).toEqual([true, false]);
  });
});

describe('daylight saving', () => {
  // London: 2026-03-29 01:00 GMT becomes 02:00 BST; 2026-10-25 02:00 BST becomes 01:00 GMT.
  // New York: 2026-03-08 02:00 EST becomes 03:00 EDT; 2026-11-01 02:00 EDT becomes 01:00 EST.
  const sunday = (opens: string, closes: string) => [{ weekday: 7, opens, closes }];

  it('opens 01:30–02:30 on London’s spring-forward day from the jump to 02:30 BST', () => {
    const london = timetable('Europe/London', sunday('01:30', '02:30'));
    expect(
      openAt(
        london,
        '2026-03-29T00:59:00Z', // 00:59 GMT
        '2026-03-29T01:00:00Z', // 02:00 BST: the clock skipped 01:30
        '2026-03-29T01:29:00Z', // 02:29 BST
        '2026-03-29T01:30:00Z', // 02:30 BST
      ),
    ).toEqual([false, true, true, false]);
    expect(next(london, '2026-03-28T12:00:00Z')).toBe('2026-03-29T01:00:00.000Z');
  });

  it('opens 01:30–02:30 on New York’s spring-forward day until the jump', () => {
    const newYork = timetable('America/New_York', sunday('01:30', '02:30'));
    expect(
      openAt(
        newYork,
        '2026-03-08T06:29:00Z', // 01:29 EST
        '2026-03-08T06:30:00Z', // 01:30 EST
        '2026-03-08T06:59:00Z', // 01:59 EST
        '2026-03-08T07:00:00Z', // 03:00 EDT: 02:30 was skipped
      ),
    ).toEqual([false, true, true, false]);
    expect(next(newYork, '2026-03-07T12:00:00Z')).toBe('2026-03-08T06:30:00.000Z');
  });

  it('keeps 01:30–02:30 open two hours on the fall-back days, from the first 01:30', () => {
    const london = timetable('Europe/London', sunday('01:30', '02:30'));
    expect(
      openAt(
        london,
        '2026-10-25T00:29:00Z', // 01:29 BST
        '2026-10-25T00:30:00Z', // 01:30 BST
        '2026-10-25T01:15:00Z', // 01:15 GMT, the repeated hour
        '2026-10-25T02:29:00Z', // 02:29 GMT
        '2026-10-25T02:30:00Z', // 02:30 GMT
      ),
    ).toEqual([false, true, true, true, false]);
    const newYork = timetable('America/New_York', sunday('01:30', '02:30'));
    expect(
      openAt(
        newYork,
        '2026-11-01T05:29:00Z', // 01:29 EDT
        '2026-11-01T05:30:00Z', // 01:30 EDT
        '2026-11-01T06:45:00Z', // 01:45 EST
        '2026-11-01T07:30:00Z', // 02:30 EST
      ),
    ).toEqual([false, true, true, false]);
  });

  it('ends a night across a change at the new clock’s closing time', () => {
    const saturday = (opens: string, closes: string) => [{ weekday: 6, opens, closes }];
    // London, Saturday 2026-03-28 22:00 GMT to Sunday 06:00 BST (05:00 UTC): seven hours.
    const london = timetable('Europe/London', saturday('22:00', '06:00'));
    expect(
      openAt(london, '2026-03-28T22:00:00Z', '2026-03-29T04:59:00Z', '2026-03-29T05:00:00Z'),
    ).toEqual([true, true, false]);
    // New York, Saturday 2026-10-31 22:00 EDT (02:00 UTC) to Sunday 06:00 EST (11:00 UTC): nine.
    const newYork = timetable('America/New_York', saturday('22:00', '06:00'));
    expect(
      openAt(newYork, '2026-11-01T01:59:00Z', '2026-11-01T10:59:00Z', '2026-11-01T11:00:00Z'),
    ).toEqual([false, true, false]);
  });

  it('finds the next opening by the local clock across a change', () => {
    const london = timetable('Europe/London', weekdays);
    // Saturday before the change (GMT) to Monday 08:00 BST = 07:00 UTC.
    expect(next(london, '2026-03-28T12:00:00Z')).toBe('2026-03-30T07:00:00.000Z');
    // Friday evening before the autumn change (BST) to Monday 08:00 GMT.
    expect(next(london, '2026-10-23T19:30:00Z')).toBe('2026-10-26T08:00:00.000Z');
    const newYork = timetable('America/New_York', weekdays);
    // Friday evening EST to Monday 08:00 EDT = 12:00 UTC.
    expect(next(newYork, '2026-03-07T02:00:00Z')).toBe('2026-03-09T12:00:00.000Z');
    // Saturday EDT to Monday 08:00 EST = 13:00 UTC.
    expect(next(newYork, '2026-10-31T16:00:00Z')).toBe('2026-11-02T13:00:00.000Z');
  });
});

describe('nextOpening', () => {
  it('finds the same morning’s opening in the company’s zone', () => {
    const london = timetable('Europe/London', weekdays);
    expect(next(london, '2026-11-23T06:00:00Z')).toBe('2026-11-23T08:00:00.000Z');
  });

  it('skips the weekend to Monday', () => {
    // Saturday 2026-11-21 12:00 in New York (UTC-5): next opening Monday 08:00 = 13:00 UTC.
    expect(next(timetable('America/New_York', weekdays), '2026-11-21T17:00:00Z')).toBe(
      '2026-11-23T13:00:00.000Z',
    );
  });

  it('skips a holiday and opens at a date’s own hours', () => {
    const london = timetable('Europe/London', weekdays, [
      { date: '2026-12-24', label: 'Christmas Eve', hours: [{ opens: '09:00', closes: '13:00' }] },
      { date: '2026-12-25', label: 'Christmas Day', hours: [] },
    ]);
    // Wednesday 23 December after closing: Christmas Eve opens at 09:00, not 08:00.
    expect(next(london, '2026-12-23T21:00:00Z')).toBe('2026-12-24T09:00:00.000Z');
    // Christmas Eve after 13:00: Christmas Day is closed, Monday 28 December opens.
    expect(next(london, '2026-12-24T14:00:00Z')).toBe('2026-12-28T08:00:00.000Z');
  });

  it('looks past a long closure to the first exception that opens', () => {
    const closedForWinter = timetable(
      'UTC',
      [],
      [{ date: '2027-02-20', label: 'Open day', hours: [{ opens: '10:00', closes: '16:00' }] }],
    );
    expect(next(closedForWinter, '2026-12-01T12:00:00Z')).toBe('2027-02-20T10:00:00.000Z');
  });

  it('answers null when nothing opens', () => {
    expect(next(timetable('UTC', []), '2026-01-07T12:00:00Z')).toBeNull();
    const holidaysOnly = timetable('UTC', [], [{ date: '2026-01-08', label: null, hours: [] }]);
    expect(next(holidaysOnly, '2026-01-07T12:00:00Z')).toBeNull();
  });
});

describe('openingsBetween', () => {
  const spans = (t: Timetable, from: string, to: string) =>
    openingsBetween(t, new Date(from), new Date(to)).map(
      ({ opens, closes }) => `${opens.toISOString()}–${closes.toISOString()}`,
    );

  it('gives the openings that overlap the range, in the zone’s summer time', () => {
    // London keeps BST (UTC+1) in June: 08:00–20:00 is 07:00–19:00 UTC. Friday 5 June to
    // Monday 8 June noon: Friday's and Monday's, not the weekend.
    expect(
      spans(timetable('Europe/London', weekdays), '2026-06-05T12:00:00Z', '2026-06-08T12:00:00Z'),
    ).toEqual([
      '2026-06-05T07:00:00.000Z–2026-06-05T19:00:00.000Z',
      '2026-06-08T07:00:00.000Z–2026-06-08T19:00:00.000Z',
    ]);
  });

  it('takes in the night that began the day before, and follows a holiday', () => {
    const nights = timetable(
      'UTC',
      [1, 2, 3].map((weekday) => ({ weekday, opens: '22:00', closes: '02:00' })),
      [{ date: '2026-01-06', label: 'Holiday', hours: [] }],
    );
    // Monday's night runs into Tuesday; Tuesday is a holiday (closed), so Monday's night ends at
    // its midnight, and Tuesday opens not at all.
    expect(spans(nights, '2026-01-05T23:00:00Z', '2026-01-07T23:00:00Z')).toEqual([
      '2026-01-05T22:00:00.000Z–2026-01-06T00:00:00.000Z',
      '2026-01-07T22:00:00.000Z–2026-01-08T02:00:00.000Z',
    ]);
  });
});
