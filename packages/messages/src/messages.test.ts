import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** The runtime as a page first loads it: no catalogue but English fetched yet. */
const freshRuntime = () => import('./messages.ts');

beforeEach(() => vi.resetModules());
afterEach(() => {
  vi.doUnmock('virtual:messages/ar');
  vi.restoreAllMocks();
});

describe('a language’s sentences', () => {
  it('gives English its singular and plural, and leaves text alone', async () => {
    const { translate } = await freshRuntime();
    expect(translate('en', 'calls', { count: 1 })).toBe('1 call');
    expect(translate('en', 'calls', { count: 1437 })).toBe('1,437 calls');
    expect(translate('en', 'greeting', { name: 'Ada' })).toBe('Hello Ada');
    expect(translate('en', 'plain')).toBe('Loading…');
  });

  it('speaks English in a language until its catalogue has come, then that language', async () => {
    const { loadLanguage, translate } = await freshRuntime();
    expect(translate('ar', 'greeting', { name: 'Ada' })).toBe('Hello Ada');
    await expect(loadLanguage('ar')).resolves.toBe(true);
    expect(translate('ar', 'greeting', { name: 'Ada' })).toBe('مرحبا Ada');
    expect(translate('ar', 'plain')).toBe('جارٍ التحميل…');
  });

  it('gives Arabic its zero, one, two, few and many, in the digits Arabic writes', async () => {
    const { loadLanguage, translate } = await freshRuntime();
    await loadLanguage('ar');
    const n = new Intl.NumberFormat('ar').format;
    const calls = (count: number) => translate('ar', 'calls', { count });
    expect(calls(0)).toBe('لا مكالمات');
    expect(calls(1)).toBe('مكالمة واحدة');
    expect(calls(2)).toBe('مكالمتان');
    expect(calls(3)).toBe(`${n(3)} مكالمات`);
    expect(calls(11)).toBe(`${n(11)} مكالمة`);
    expect(calls(100)).toBe(`${n(100)} مكالمة`);
  });

  it('formats in the locale it is given: the console’s British English', async () => {
    const { translate } = await freshRuntime();
    const day = Date.UTC(2026, 10, 27, 12);
    expect(translate('en', 'on', { day })).toBe('On 11/27/26');
    expect(translate('en-GB', 'on', { day })).toBe('On 27/11/26');
  });

  it('names a key no catalogue has, and tells the sentences it has', async () => {
    const { hasMessage, translate } = await freshRuntime();
    expect(() => translate('en', 'missing')).toThrow('No message "missing" in en');
    expect(hasMessage('greeting')).toBe(true);
    expect(hasMessage('nothing')).toBe(false);
  });
});

describe('a catalogue that fails to come', () => {
  it('leaves the sentences English, says so, and comes on a later try', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.doMock('virtual:messages/ar', () => {
      throw new Error('offline');
    });
    const { loadLanguage, translate } = await freshRuntime();
    await expect(loadLanguage('ar')).resolves.toBe(false);
    expect(warn).toHaveBeenCalledWith('The ar sentences could not be loaded', expect.any(Error));
    expect(translate('ar', 'greeting', { name: 'Ada' })).toBe('Hello Ada');
    vi.doUnmock('virtual:messages/ar');
    await expect(loadLanguage('ar')).resolves.toBe(true);
    expect(translate('ar', 'greeting', { name: 'Ada' })).toBe('مرحبا Ada');
  });

  it('is fetched once, however many ask for it while it comes', async () => {
    const { loadLanguage } = await freshRuntime();
    const first = loadLanguage('ar');
    expect(loadLanguage('ar')).toBe(first);
    await first;
    expect(loadLanguage('ar')).toBe(first);
  });
});

describe('languages', () => {
  it('takes the supported language closest to a tag, English otherwise', async () => {
    const { directionOf, languageOf } = await freshRuntime();
    expect(languageOf('ar-EG')).toBe('ar');
    expect(languageOf('AR')).toBe('ar');
    expect(languageOf('en-GB')).toBe('en');
    expect(languageOf('fr')).toBe('en');
    expect(languageOf('')).toBe('en');
    expect(directionOf('ar')).toBe('rtl');
    expect(directionOf('en')).toBe('ltr');
  });
});
