import { describe, expect, it } from 'vitest';
import { brandingVariables } from './branding.ts';
import { companySettingsSchema } from './company.ts';

const withFont = (fontFamily: string | null) =>
  brandingVariables(companySettingsSchema.parse({ fontFamily }));

describe('the branding variables', () => {
  it('split a company’s fonts from their generic family, which the page puts after its own', () => {
    expect(withFont('Noto Naskh Arabic, serif')).toMatchObject({
      '--fd-font': 'Noto Naskh Arabic',
      '--fd-font-generic': 'serif',
    });
    expect(withFont('Inter, system-ui, sans-serif')).toMatchObject({
      '--fd-font': 'Inter, system-ui',
      '--fd-font-generic': 'sans-serif',
    });
    expect(withFont("'Open Sans'")).toMatchObject({
      '--fd-font': "'Open Sans'",
      '--fd-font-generic': null,
    });
    expect(withFont('serif')).toMatchObject({ '--fd-font': null, '--fd-font-generic': 'serif' });
    expect(withFont(null)).toMatchObject({ '--fd-font': null, '--fd-font-generic': null });
  });
});
