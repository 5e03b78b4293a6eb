import { afterEach, describe, expect, it } from 'vitest';
import arabicSource from './catalogues/ar.json';
import englishSource from './catalogues/en.json';
import { currentLanguage, hasMessage, intlLocale, switchLanguage, t } from './messages.ts';

afterEach(() => switchLanguage('en'));

describe('the console’s sentences', () => {
  it('speaks English by default, with its singular and plural', () => {
    expect(currentLanguage()).toBe('en');
    expect(t('previousCalls', { count: 1 })).toBe('1 previous call');
    expect(t('previousCalls', { count: 3 })).toBe('3 previous calls');
    expect(t('zoneCorners', { count: '1' })).toBe('1 corner');
    expect(t('signedInAs', { name: 'Ada' })).toBe('Signed in as Ada');
    expect(t('qualityFiguresRtt', { level: 'good', kbps: 1437, loss: 0, rtt: 4 })).toBe(
      'good (1,437 kbps, 0.0 % loss, 4 ms)',
    );
    expect(hasMessage('help_name')).toBe(true);
    expect(hasMessage('help_nothing')).toBe(false);
  });

  it('gives Arabic its zero, one, two, few and many, in the digits Arabic writes', async () => {
    await switchLanguage('ar');
    const n = new Intl.NumberFormat('ar').format;
    const calls = (count: number) => t('previousCalls', { count });
    expect(calls(0)).toBe('لا مكالمات سابقة');
    expect(calls(1)).toBe('مكالمة سابقة واحدة');
    expect(calls(2)).toBe('مكالمتان سابقتان');
    expect(calls(3)).toBe(`${n(3)} مكالمات سابقة`);
    expect(calls(11)).toBe(`${n(11)} مكالمة سابقة`);
    expect(calls(100)).toBe(`${n(100)} مكالمة سابقة`);
    expect(t('waitingCount', { count: 2 })).toBe('زائران ينتظران');
    expect(t('signedInAs', { name: 'Ada' })).toBe('مسجّل الدخول باسم Ada');
    expect(t('qualityFigures', { level: 'جيد', kbps: 437, loss: 1.25 })).toBe(
      `جيد (${n(437)} كيلوبت/ث، فقدان ${new Intl.NumberFormat('ar', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(1.25)} ٪)`,
    );
    expect(intlLocale()).toBe('ar');
  });

  it('marks the document with the language and its direction', async () => {
    await switchLanguage('ar');
    expect(document.documentElement.lang).toBe('ar');
    expect(document.documentElement.dir).toBe('rtl');
    await switchLanguage('en');
    expect(document.documentElement.dir).toBe('ltr');
  });

  it('has every sentence translated into Arabic, not copied from English', () => {
    const english: Record<string, string> = englishSource;
    const arabic: Record<string, string> = arabicSource;
    expect(Object.keys(arabic).sort()).toEqual(Object.keys(english).sort());
    // Sentences of only arguments, numbers and signs read the same in both.
    const untranslated = Object.keys(english).filter(
      (key) =>
        arabic[key] === english[key] &&
        /[A-Za-z]{2,}/.test((english[key] ?? '').replace(/\{[^}]*\}/g, '')),
    );
    expect(untranslated).toEqual([]);
  });
});
