import { describe, expect, it } from 'vitest';
import { companySettingsSchema, openingHoursSchema, timeZoneSchema } from './company.ts';

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
  it('take IANA time zones only', () => {
    expect(timeZoneSchema.safeParse('Europe/London').success).toBe(true);
    expect(timeZoneSchema.safeParse('Mars/Olympus').success).toBe(false);
  });

  it('keep opening before closing within one day', () => {
    expect(
      openingHoursSchema.safeParse({ weekday: 1, opens: '08:00', closes: '20:00' }).success,
    ).toBe(true);
    expect(
      openingHoursSchema.safeParse({ weekday: 1, opens: '22:00', closes: '02:00' }).success,
    ).toBe(false);
    expect(
      openingHoursSchema.safeParse({ weekday: 8, opens: '08:00', closes: '20:00' }).success,
    ).toBe(false);
    expect(
      openingHoursSchema.safeParse({ weekday: 1, opens: '8:00', closes: '24:00' }).success,
    ).toBe(false);
  });
});
