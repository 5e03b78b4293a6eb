import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compiledCatalogues } from '../../../../build/message-catalogues.ts';
import { translate } from './messages.ts';

describe('messages', () => {
  it('gives English its singular and plural', () => {
    expect(translate('en', 'estimatedWait', { minutes: 1 })).toBe(
      'Estimated wait: about 1 minute.',
    );
    expect(translate('en', 'estimatedWait', { minutes: 4 })).toBe(
      'Estimated wait: about 4 minutes.',
    );
    expect(translate('en', 'unread', { count: 1 })).toBe('1 unread message');
    expect(translate('en', 'unread', { count: 12 })).toBe('12 unread messages');
  });

  it('gives Arabic its dual, its few and its many, in the digits Arabic writes', () => {
    const n = new Intl.NumberFormat('ar').format;
    const wait = (minutes: number) => translate('ar', 'estimatedWait', { minutes });
    expect(wait(1)).toBe('وقت الانتظار المتوقع: حوالي دقيقة واحدة.');
    expect(wait(2)).toBe('وقت الانتظار المتوقع: حوالي دقيقتين.');
    expect(wait(3)).toBe(`وقت الانتظار المتوقع: حوالي ${n(3)} دقائق.`);
    expect(wait(10)).toBe(`وقت الانتظار المتوقع: حوالي ${n(10)} دقائق.`);
    expect(wait(11)).toBe(`وقت الانتظار المتوقع: حوالي ${n(11)} دقيقة.`);
    expect(wait(100)).toBe(`وقت الانتظار المتوقع: حوالي ${n(100)} دقيقة.`);
    expect(translate('ar', 'unread', { count: 2 })).toBe('رسالتان غير مقروءتين');
    expect(translate('ar', 'unread', { count: 5 })).toBe(`${n(5)} رسائل غير مقروءة`);
  });

  it('fills simple arguments and leaves text alone', () => {
    expect(translate('en', 'visitWebsite', { site: 'Acme' })).toBe('Back to Acme');
    expect(translate('ar', 'visitWebsite', { site: 'Acme' })).toBe('العودة إلى Acme');
    expect(translate('en', 'loading')).toBe('Loading…');
  });
});

describe('the catalogues the build compiles', () => {
  function catalogues(en: Record<string, string>, ar: Record<string, string>) {
    const folder = mkdtempSync(join(tmpdir(), 'catalogues-'));
    writeFileSync(join(folder, 'en.json'), JSON.stringify(en));
    writeFileSync(join(folder, 'ar.json'), JSON.stringify(ar));
    return () => compiledCatalogues(folder);
  }

  it('keeps plain text as text and parses messages with arguments', () => {
    const compiled = catalogues(
      { plain: 'Hello', slot: 'Hi {name}' },
      { plain: 'مرحبا', slot: 'مرحبا {name}' },
    )();
    expect(compiled.en?.plain).toBe('Hello');
    expect(Array.isArray(compiled.ar?.slot)).toBe(true);
  });

  it('refuses a translation that lacks a key, adds one, or drops an argument, naming it', () => {
    expect(catalogues({ a: 'A', b: 'B' }, { a: 'أ' })).toThrow('ar.json lacks "b"');
    expect(catalogues({ a: 'A' }, { a: 'أ', z: 'ز' })).toThrow('keys en.json lacks: z');
    expect(catalogues({ a: '{count, plural, one {#} other {#}}' }, { a: 'عدد' })).toThrow(
      'ar.json "a"',
    );
    expect(catalogues({ a: 'Hi {name' }, { a: 'x' })).toThrow('"a" is not ICU MessageFormat');
  });

  it('refuses a key written twice, which JSON would otherwise keep the last of', () => {
    const folder = mkdtempSync(join(tmpdir(), 'catalogues-'));
    writeFileSync(join(folder, 'en.json'), '{"a": "A, {n}", "b": "B", "a": "again"}');
    writeFileSync(join(folder, 'ar.json'), JSON.stringify({ a: 'أ {n}', b: 'ب' }));
    expect(() => compiledCatalogues(folder)).toThrow('"a" is written twice');
  });
});
