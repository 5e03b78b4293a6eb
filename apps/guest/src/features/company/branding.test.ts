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

  it('falls back to the defaults for colours the company leaves unset', () => {
    applyBranding(company({ backgroundColor: '#000000' }));
    applyBranding(company({ backgroundColor: null }));
    expect(document.documentElement.style.getPropertyValue('--fd-page-bg')).toBe('');
    expect(document.documentElement.dir).toBe('ltr');
  });
});
