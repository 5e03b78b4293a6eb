import { z } from 'zod';
import { guestUsernameSchema } from './guest.ts';
import { recordIdSchema } from './ids.ts';

/** An answer key: a field name that is safe as an object key and a DOM id. */
const fieldNameSchema = z.string().regex(/^[a-zA-Z][a-zA-Z0-9_]{0,49}$/);

const fieldBase = {
  name: fieldNameSchema,
  label: z.string().min(1).max(200),
  required: z.boolean(),
  /** A line under the field that says what to give (the guest app shows it). */
  help: z.string().max(500).optional(),
};

export const RATING_SCALE_MAX = 5;

/**
 * One field of a company's welcome or rating form. spec §5 leaves field-level validation open;
 * these types are ours, and {@link formAnswersSchema} turns a form into its answer check.
 */
export const formFieldSchema = z.discriminatedUnion('type', [
  z.object({
    ...fieldBase,
    type: z.enum(['text', 'email', 'tel', 'textarea']),
    maxLength: z.number().int().min(1).max(5000),
  }),
  z.object({
    ...fieldBase,
    type: z.literal('select'),
    options: z
      .array(z.object({ value: z.string().min(1).max(100), label: z.string().max(200) }))
      .min(1),
  }),
  z.object({ ...fieldBase, type: z.literal('checkbox') }),
  /** A score from 1 to {@link RATING_SCALE_MAX}, shown as stars or emojis (company ratingStyle). */
  z.object({ ...fieldBase, type: z.literal('rating') }),
]);
export type FormField = z.infer<typeof formFieldSchema>;

export const formFieldsSchema = z
  .array(formFieldSchema)
  .min(1)
  .max(50)
  .refine(
    (fields) => new Set(fields.map((f) => f.name)).size === fields.length,
    'field names must be unique',
  );

/** A company's form as the guest renders it. spec §3: the rating form has an id. */
export const formSchema = z.object({
  id: recordIdSchema,
  title: z.string(),
  fields: formFieldsSchema,
});
export type Form = z.infer<typeof formSchema>;

export const answerValueSchema = z.union([z.string().max(5000), z.number(), z.boolean()]);
export const answersSchema = z.record(fieldNameSchema, answerValueSchema);
export type Answers = z.infer<typeof answersSchema>;

function answerSchemaFor(field: FormField): z.ZodType {
  switch (field.type) {
    case 'email':
      return z.email().max(field.maxLength);
    case 'tel':
      return z
        .string()
        .trim()
        .regex(/^\+?[0-9 ()-]{5,30}$/, 'must be a phone number')
        .max(field.maxLength);
    case 'text':
    case 'textarea':
      return z.string().trim().min(1).max(field.maxLength);
    case 'select':
      return z.enum(field.options.map((o) => o.value) as [string, ...string[]]);
    case 'checkbox':
      return field.required ? z.literal(true, 'must be ticked') : z.boolean();
    case 'rating':
      return z.number().int().min(1).max(RATING_SCALE_MAX);
  }
}

/**
 * The check for one form's answers: every required field present and of its type, no field the
 * form does not have. The guest app validates with it before sending; the API again on receipt.
 */
export function formAnswersSchema(fields: readonly FormField[]) {
  const shape: Record<string, z.ZodType> = {};
  for (const field of fields) {
    const answer = answerSchemaFor(field);
    shape[field.name] = field.required ? answer : answer.optional();
  }
  return z.strictObject(shape);
}

/** spec §1: the service types a form submission belongs to. */
export const serviceTypeSchema = z.enum(['Talk', 'Widget', 'All Services']);
export type ServiceType = z.infer<typeof serviceTypeSchema>;

/** `POST /form-submission` (spec §7): the welcome form's answers. */
export const formSubmissionBodySchema = z.strictObject({
  company: recordIdSchema,
  guestUsername: guestUsernameSchema,
  serviceType: serviceTypeSchema,
  form: recordIdSchema,
  answers: answersSchema,
  /**
   * The embedding site's signed prefill (`Frontdesk('identify', {token})`, decision 0021): the
   * answers it vouches for are stored as verified when the signature holds and they were sent
   * unchanged; a token that does not verify is refused (400 naming `identity`).
   */
  identity: z.string().min(1).max(20_000).optional(),
});
export type FormSubmissionBody = z.infer<typeof formSubmissionBodySchema>;

/** `POST /form-submission/get-submission` (spec §7). */
export const formSubmissionQuerySchema = z.strictObject({
  companyId: recordIdSchema,
  guestUsername: guestUsernameSchema,
  serviceType: serviceTypeSchema,
});

export const formSubmissionSchema = z.object({
  id: recordIdSchema,
  form: recordIdSchema,
  serviceType: serviceTypeSchema,
  answers: answersSchema,
  createdAt: z.iso.datetime(),
});
export type FormSubmission = z.infer<typeof formSubmissionSchema>;

/** spec §5: an empty object means "no submission yet", so the form is required. */
export const formSubmissionLookupSchema = z.union([formSubmissionSchema, z.strictObject({})]);
export type FormSubmissionLookup = z.infer<typeof formSubmissionLookupSchema>;

/** `POST /rating-form/submissions` (spec §7): `report` is the call report id. */
export const ratingSubmissionBodySchema = z.strictObject({
  guestUsername: guestUsernameSchema,
  report: recordIdSchema,
  form: recordIdSchema,
  answers: answersSchema,
});

export const createdSchema = z.object({ id: recordIdSchema });

/**
 * An answer to every required field of `form` that its check accepts: what a guest who fills
 * the form in with the least it must gives (the test suites and the benchmark).
 */
export function minimalAnswers(form: Form): Answers {
  const answers: Answers = {};
  for (const field of form.fields.filter((f) => f.required)) {
    if (field.type === 'email') answers[field.name] = 'guest@example.com';
    else if (field.type === 'select') answers[field.name] = field.options[0]?.value ?? '';
    else if (field.type === 'rating') answers[field.name] = RATING_SCALE_MAX;
    else if (field.type === 'checkbox') answers[field.name] = true;
    else if (field.type === 'tel') answers[field.name] = '+44 20 7946 0000';
    else answers[field.name] = 'A guest'.slice(0, field.maxLength);
  }
  return answers;
}
