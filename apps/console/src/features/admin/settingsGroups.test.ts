import { describe, expect, it } from 'vitest';
import { companySettingsPatchShape, companySettingsSchema } from '@frontdesk/protocol';
import { clockCompany } from '../../test/render.tsx';
import { changedFields, previewCompany, toDraft } from './settingsDraft.ts';
import { SETTINGS_FIELDS } from './settingsGroups.ts';

const placed = SETTINGS_FIELDS.map((spec) => spec.name);

describe('the settings groups', () => {
  it('place every field PATCH /company/:id takes, and the name, exactly once', () => {
    expect([...placed].sort()).toEqual(['name', ...Object.keys(companySettingsPatchShape)].sort());
  });

  it('cover every company setting but the allowed origins (their own route, on the website page)', () => {
    const settings = Object.keys(companySettingsSchema.shape).filter(
      (field) => field !== 'allowedOrigins',
    );
    expect(settings.filter((field) => !placed.includes(field as never))).toEqual([]);
  });
});

describe('the draft', () => {
  it('changes nothing until a field is edited, and empties a text to null (the default)', () => {
    const company = { ...clockCompany, welcomeMsg: 'Hi', thanksMsg: null };
    const draft = toDraft(company);
    expect(changedFields(draft, company)).toEqual({});
    expect(changedFields({ ...draft, welcomeMsg: '  ', thanksMsg: ' Bye ' }, company)).toEqual({
      welcomeMsg: null,
      thanksMsg: 'Bye',
    });
  });

  it('previews only the values the API would take', () => {
    const draft = { ...toDraft(clockCompany), textColor: '#12', welcomeMsg: 'Hello' };
    const shown = previewCompany(clockCompany, draft);
    expect(shown.textColor).toBe(clockCompany.textColor);
    expect(shown.welcomeMsg).toBe('Hello');
  });
});
