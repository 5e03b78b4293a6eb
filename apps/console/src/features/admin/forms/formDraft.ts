import { set, type FieldErrors, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import {
  formBodySchema,
  formFieldSchema,
  type Form,
  type FormBody,
  type FormField,
} from '@frontdesk/protocol';
import { t, type MessageKey } from '../../../i18n/messages.ts';
import type { ChangeLine } from '../SaveSummary.tsx';

/** The field types the guest app renders (`formFieldSchema`), in the order the builder offers. */
export const FIELD_TYPES = formFieldSchema.options.flatMap((option) => {
  const type = option.shape.type;
  return 'options' in type ? type.options : [type.value];
}) satisfies FormField['type'][];
export type FieldType = (typeof FIELD_TYPES)[number];

/** Types whose answer is typed text, with a longest answer. */
const TEXT_TYPES = new Set<FieldType>(['text', 'email', 'tel', 'textarea']);
export const hasMaxLength = (type: FieldType) => TEXT_TYPES.has(type);
export const hasOptions = (type: FieldType) => type === 'select';

export const typeName = (type: FieldType) => t(`formFieldType_${type}` as MessageKey);

export type OptionDraft = { label: string; value: string };

/**
 * A field as the builder holds it: every part any type has, so changing a field's type keeps
 * what was typed; {@link toFormBody} sends only the parts of its type.
 */
export type FieldDraft = {
  type: FieldType;
  name: string;
  label: string;
  required: boolean;
  help: string;
  maxLength: string;
  options: OptionDraft[];
};

/**
 * The form as the builder holds it: `PUT /company/:id/forms/:kind`'s body in the same order, so
 * each field the API names (`fields.2.options.0.value`) is one of the builder's own.
 */
export type FormValues = { title: string; fields: FieldDraft[] };

const DEFAULT_MAX_LENGTH = '200';

export function toFieldDraft(field: FormField): FieldDraft {
  return {
    type: field.type,
    name: field.name,
    label: field.label,
    required: field.required,
    help: field.help ?? '',
    maxLength: 'maxLength' in field ? String(field.maxLength) : DEFAULT_MAX_LENGTH,
    options: 'options' in field ? field.options.map((o) => ({ ...o })) : [],
  };
}

export function toFormDraft(form: Pick<Form, 'title' | 'fields'> | null): FormValues {
  return { title: form?.title ?? '', fields: form?.fields.map(toFieldDraft) ?? [] };
}

/** The first answer name of the form's pattern that no field has yet: `question3`. */
function freeName(fields: readonly FieldDraft[]): string {
  const taken = new Set(fields.map((f) => f.name));
  let n = fields.length + 1;
  while (taken.has(`question${n}`)) n += 1;
  return `question${n}`;
}

/** A new field of `type`, with a label to replace and, for a choice, no options yet. */
export function newField(type: FieldType, fields: readonly FieldDraft[]): FieldDraft {
  return {
    type,
    name: freeName(fields),
    label: '',
    required: false,
    help: '',
    maxLength: DEFAULT_MAX_LENGTH,
    options: [],
  };
}

/**
 * An option's stored value made from its label: lower case, letters, digits and dashes, as
 * reports read best (`Opening hours` → `opening-hours`).
 */
export function valueFromLabel(label: string): string {
  return label
    .trim()
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);
}

function toField(draft: FieldDraft): unknown {
  const help = draft.help.trim();
  const base = {
    name: draft.name.trim(),
    label: draft.label.trim(),
    required: draft.required,
    ...(help ? { help } : {}),
  };
  if (hasMaxLength(draft.type)) {
    return { ...base, type: draft.type, maxLength: Number(draft.maxLength) };
  }
  if (hasOptions(draft.type)) {
    return {
      ...base,
      type: draft.type,
      options: draft.options.map((o) => ({ label: o.label.trim(), value: o.value.trim() })),
    };
  }
  return { ...base, type: draft.type };
}

/** The draft as the API takes it (texts trimmed); the schema judges it. */
export function toFormBody(values: FormValues): FormBody {
  return { title: values.title.trim(), fields: values.fields.map(toField) } as FormBody;
}

/**
 * A problem of the form's schema in the builder's words: zod's own wording ("Too small: expected
 * string to have >=1 characters") says what a developer needs, not an admin.
 */
export function readableFormIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'too_small':
      if (issue.origin === 'array') {
        return issue.path.at(-1) === 'options' ? t('formNeedsOption') : t('formNeedsField');
      }
      return issue.origin === 'string' ? t('formFillIn') : t('formTooSmall');
    case 'too_big':
      return t(issue.origin === 'string' ? 'formTooLong' : 'formAtMost', {
        max: String(issue.maximum),
      });
    case 'invalid_format':
      return t('formBadName');
    case 'invalid_type':
      return t('formNotNumber');
    case 'custom':
      return issue.path.length === 1 && issue.path[0] === 'fields'
        ? t('formNamesTwice')
        : issue.message;
    default:
      return issue.message;
  }
}

/**
 * Where the builder shows a problem the schema or the API names by `path`: a list's own
 * problem (no fields, no options, two names alike) at its `root`, as react-hook-form keeps them.
 */
export function errorPath(path: string): string {
  if (path === '') return 'root';
  return /^fields(\.\d+\.options)?$/.test(path) ? `${path}.root` : path;
}

/**
 * Checks the draft with the API's own schema (`formBodySchema`), each problem at the field it
 * names; a valid draft comes out as the body to send.
 */
export const formResolver: Resolver<FormValues, unknown, FormBody> = (values) => {
  const result = formBodySchema.safeParse(toFormBody(values));
  if (result.success) return { values: result.data, errors: {} };
  const errors: FieldErrors<FormValues> = {};
  for (const issue of result.error.issues) {
    set(errors, errorPath(issue.path.join('.')), {
      type: issue.code,
      message: readableFormIssue(issue),
    });
  }
  return { values: {}, errors };
};

/**
 * What the preview shows of the draft: its fields that are whole already (a field whose label
 * is still empty waits), each name once; `null` while none is.
 */
export function previewForm(values: FormValues, id: number): Form | null {
  const names = new Set<string>();
  const fields: FormField[] = [];
  for (const draft of values.fields) {
    const field = formFieldSchema.safeParse(toField(draft));
    if (field.success && !names.has(field.data.name)) {
      names.add(field.data.name);
      fields.push(field.data);
    }
  }
  return fields.length > 0 ? { id, title: values.title.trim(), fields } : null;
}

const describeField = (field: FormField) =>
  `${field.label} (${typeName(field.type)}${field.required ? `, ${t('formRequiredShort')}` : ''})`;

/** What a save changed, in words: the title, each field added, changed or removed, the order. */
export function describeFormChanges(before: FormBody | null, after: FormBody | null): ChangeLine[] {
  if (!before || !after) {
    const describe = (form: FormBody | null) =>
      form
        ? t('formFieldCount', { title: form.title, count: String(form.fields.length) })
        : t('formNone');
    return [
      { key: 'form', label: t('formTitleLabel'), before: describe(before), after: describe(after) },
    ];
  }
  const lines: ChangeLine[] = [];
  if (before.title !== after.title) {
    lines.push({
      key: 'title',
      label: t('formTitleLabel'),
      before: before.title,
      after: after.title,
    });
  }
  const names = [...new Set([...before.fields, ...after.fields].map((f) => f.name))];
  for (const name of names) {
    const was = before.fields.find((f) => f.name === name);
    const is = after.fields.find((f) => f.name === name);
    if (JSON.stringify(was) === JSON.stringify(is)) continue;
    lines.push({
      key: `field-${name}`,
      label: (is ?? was)?.label ?? name,
      before: was ? describeField(was) : t('formNoField'),
      after: is ? describeField(is) : t('formNoField'),
    });
  }
  const order = (form: FormBody) => form.fields.map((f) => f.label).join(', ');
  const kept = (form: FormBody, other: FormBody) =>
    form.fields.filter((f) => other.fields.some((o) => o.name === f.name)).map((f) => f.name);
  if (JSON.stringify(kept(before, after)) !== JSON.stringify(kept(after, before))) {
    lines.push({ key: 'order', label: t('formOrder'), before: order(before), after: order(after) });
  }
  return lines;
}
