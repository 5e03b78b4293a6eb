import { describe, expect, it } from 'vitest';
import {
  calendarDateSchema,
  companySettingsSchema,
  openingHoursSchema,
  scheduleSchema,
  timeZoneSchema,
} from './company.ts';

describe('company settings (spec §3)', () => {
  it('fill the defaults the spec gives', () => {
    expect(companySettingsSchema.parse({})).toMatchObject({
      callMethod: 'mediaServer',
      callType: 'userSelect',
      recordCalls: true,
      pageDirection: 'ltr',
      streamWatermark: 'hidden',
    });
  });

  it('take our own paths and http(s) URLs, never script or data URLs (SECURITY)', () => {
    const logo = (logoImageUrl: string) =>
      companySettingsSchema.safeParse({ logoImageUrl }).success;
    expect(logo('/api/files/abc')).toBe(true);
    expect(logo('https://cdn.example/logo.png')).toBe(true);
    expect(logo('javascript:alert(1)')).toBe(false);
    expect(logo('data:image/svg+xml,<svg/>')).toBe(false);
    expect(logo('//evil.example/logo.png')).toBe(false);
  });

  it('take colours as #rrggbb only', () => {
    expect(companySettingsSchema.safeParse({ textColor: '#1a2B3c' }).success).toBe(true);
    expect(companySettingsSchema.safeParse({ textColor: 'red; background: url(x)' }).success).toBe(
      false,
    );
  });
});

describe('timetables', () => {
  it('take IANA time zones only, not bare offsets', () => {
    expect(timeZoneSchema.safeParse('Europe/London').success).toBe(true);
    expect(timeZoneSchema.safeParse('Mars/Olympus').success).toBe(false);
    expect(timeZoneSchema.safeParse('+01:00').success).toBe(false);
  });

  it('take HH:MM openings, a closing at or before the opening running into the next day', () => {
    const hours = (opens: string, closes: string, weekday = 1) =>
      openingHoursSchema.safeParse({ weekday, opens, closes }).success;
    expect(hours('08:00', '20:00')).toBe(true);
    expect(hours('22:00', '02:00')).toBe(true);
    expect(hours('00:00', '00:00')).toBe(true);
    expect(hours('08:00', '20:00', 8)).toBe(false);
    expect(hours('8:00', '20:00')).toBe(false);
    expect(hours('08:00', '24:00')).toBe(false);
  });

  it('take calendar dates only', () => {
    expect(calendarDateSchema.safeParse('2028-02-29').success).toBe(true);
    expect(calendarDateSchema.safeParse('2026-02-29').success).toBe(false);
    expect(calendarDateSchema.safeParse('2026-1-05').success).toBe(false);
  });

  it('read a timetable of before exceptions existed as one without any', () => {
    const old = { timeZone: 'UTC', hours: [], openNow: false };
    expect(scheduleSchema.parse(old)).toEqual({ ...old, exceptions: [] });
  });
});
