import { describe, expect, it } from 'vitest';
import { company } from '../../test/render.tsx';
import { applyBranding } from './branding.ts';

describe('applyBranding', () => {
  it('puts language, direction, colours, font, title and icon on the document', () => {
    applyBranding(
      company({
        language: 'ar-EG',
        pageDirection: 'rtl',
        backgroundColor: '#102030',
        fontFamily: 'Cairo, sans-serif',
        websiteTitle: 'Acme',
        faviconUrl: '/brand/favicon.svg',
        backgroundImgUrl: '/bg "x".png',
      }),
    );
    const root = document.documentElement;
    expect(root.lang).toBe('ar');
    expect(root.dir).toBe('rtl');
    expect(root.style.getPropertyValue('--fd-page-bg')).toBe('#102030');
    expect(root.style.getPropertyValue('--fd-font')).toBe('Cairo');
    expect(root.style.getPropertyValue('--fd-font-generic')).toBe('sans-serif');
    // A quote in the URL cannot end the CSS string.
    expect(root.style.getPropertyValue('--fd-page-bg-image')).toBe('url("/bg%20%22x%22.png")');
    expect(document.title).toBe('Acme');
    expect(document.querySelector('link[rel="icon"]')?.getAttribute('href')).toBe(
      '/brand/favicon.svg',
    );
  });

  // decision 0021: the embed's locale over the company's language, and the direction with it.
  it.each([
    ['ar', { language: 'en', pageDirection: 'ltr' }, 'ar', 'rtl'],
    ['ar-EG', { language: 'en', pageDirection: 'ltr' }, 'ar', 'rtl'],
    ['en', { language: 'ar', pageDirection: 'rtl' }, 'en', 'ltr'],
    ['ar', { language: 'ar', pageDirection: 'rtl' }, 'ar', 'rtl'],
    [undefined, { language: 'ar', pageDirection: 'rtl' }, 'ar', 'rtl'],
  ] as const)(
    'the page asked for %s of a company speaking %o is %s, %s',
    (requested, settings, lang, dir) => {
      applyBranding(company(settings), requested);
      expect([document.documentElement.lang, document.documentElement.dir]).toEqual([lang, dir]);
    },
  );

  it('falls back to the defaults for colours the company leaves unset', () => {
    applyBranding(company({ backgroundColor: '#000000' }));
    applyBranding(company({ backgroundColor: null }));
    expect(document.documentElement.style.getPropertyValue('--fd-page-bg')).toBe('');
    expect(document.documentElement.dir).toBe('ltr');
  });
});
