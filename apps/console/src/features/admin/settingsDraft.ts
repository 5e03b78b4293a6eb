import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldErrors, Resolver } from 'react-hook-form';
import {
  companyDetailsSchema,
  companyUpdateBodySchema,
  type CompanyDetails,
  type CompanyUpdateBody,
} from '@frontdesk/protocol';
import { SETTINGS_FIELDS, type SettingsField } from './settingsGroups.ts';

/** The company's settings as the API gave them: what the draft is compared with. */
export type SavedSettings = Pick<CompanyDetails, SettingsField>;

/** A field as a form control holds it: texts (and a cleared one) as strings, never null. */
type DraftOf<T> = T extends boolean ? boolean : T extends readonly unknown[] ? T : string;

/** The settings form's values (react-hook-form's field values). */
export type SettingsValues = { [K in SettingsField]: DraftOf<SavedSettings[K]> };

/** One changed field: what the API holds and what the draft would make it. */
export type FieldChange = { field: SettingsField; before: unknown; after: unknown };

/** The draft of what the company has now: `null` ("the app's default") shows as an empty box. */
export function toDraft(company: SavedSettings): SettingsValues {
  const draft: Record<string, unknown> = {};
  for (const { name } of SETTINGS_FIELDS) draft[name] = company[name] ?? '';
  return draft as SettingsValues;
}

/** A field's value as the API would store it: texts trimmed, an empty one `null` (the default). */
function normalise(field: SettingsField, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  return trimmed === '' && field !== 'name' ? null : trimmed;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The fields the draft changes, with their values as the API would take them. */
export function changedFields(values: SettingsValues, saved: SavedSettings): CompanyUpdateBody {
  const changes: Record<string, unknown> = {};
  for (const { name } of SETTINGS_FIELDS) {
    const after = normalise(name, values[name]);
    if (!same(after, saved[name] ?? null)) changes[name] = after;
  }
  return changes as CompanyUpdateBody;
}

/** The change list a save shows (before → after), in the form's order. */
export function describeChanges(body: CompanyUpdateBody, saved: SavedSettings): FieldChange[] {
  return SETTINGS_FIELDS.filter(({ name }) => name in body).map(({ name }) => ({
    field: name,
    before: saved[name] ?? null,
    after: body[name] ?? null,
  }));
}

/** The body that puts back what a save changed (its Undo). */
export function undoBody(changes: readonly FieldChange[]): CompanyUpdateBody {
  return Object.fromEntries(changes.map((change) => [change.field, change.before]));
}

const validateChanges = zodResolver(companyUpdateBodySchema);

/**
 * Validates the fields the draft changes with the API's own schema (`PATCH /company/:id`), so
 * each message is the one the API would give. Fields left as they are are not judged: a value
 * set before these rules (a seeded `/brand/…` picture) must not block saving another field.
 * The resolver's context is the saved settings.
 */
export const settingsResolver: Resolver<SettingsValues, SavedSettings> = async (
  values,
  saved,
  options,
) => {
  if (!saved) return { values, errors: {} };
  const changes = changedFields(values, saved);
  if (Object.keys(changes).length === 0) return { values, errors: {} };
  const result = await validateChanges(changes, undefined, {
    ...options,
    names: undefined,
    fields: {},
  } as Parameters<typeof validateChanges>[2]);
  const errors = result.errors as FieldErrors<SettingsValues>;
  return Object.keys(errors).length > 0 ? { values: {}, errors } : { values, errors: {} };
};

/**
 * What the live preview renders: the saved company with every changed field the API would
 * accept; a field still being typed (`#1a2`) keeps its saved value until it is whole.
 */
export function previewCompany(company: CompanyDetails, values: SettingsValues): CompanyDetails {
  const changes = changedFields(values, company);
  const accepted: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(changes)) {
    if (companyUpdateBodySchema.safeParse({ [field]: value }).success) accepted[field] = value;
  }
  const merged = companyDetailsSchema.safeParse({ ...company, ...accepted });
  return merged.success ? merged.data : company;
}
