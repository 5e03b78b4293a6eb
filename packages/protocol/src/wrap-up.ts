import { z } from 'zod';
import { callIdParamsSchema } from './calls.ts';
import { companyParamsSchema } from './company.ts';
import { envelope } from './envelope.ts';
import type { Route } from './routes.ts';

/** An outcome's code, as reports and exports name it: lower-case letters, digits and dashes. */
export const OUTCOME_CODE = /^[a-z0-9][a-z0-9-]{0,29}$/;
/** How many outcome codes a company keeps. */
export const OUTCOME_CODES_MAX = 30;
export const FOLLOW_UP_NOTE_MAX_LENGTH = 1_000;

/** How a call ended for the business (issue 19 item 3): `sale`, "Sale made". */
export const outcomeCodeSchema = z.object({ code: z.string(), label: z.string() });
export type OutcomeCode = z.infer<typeof outcomeCodeSchema>;

const codeField = z
  .string()
  .trim()
  .regex(OUTCOME_CODE, 'must be 1 to 30 lower-case letters, digits or dashes');

/** `PUT /company/:id/outcome-codes`: the whole list, in the order agents see it. */
export const outcomeCodesBodySchema = z.strictObject({
  codes: z
    .array(
      z.strictObject({
        code: codeField,
        label: z
          .string()
          .trim()
          .min(1, 'must not be empty')
          .max(60, 'must be at most 60 characters'),
      }),
    )
    .max(OUTCOME_CODES_MAX, `must hold at most ${OUTCOME_CODES_MAX} codes`)
    .refine(
      (codes) => new Set(codes.map((entry) => entry.code)).size === codes.length,
      'must not repeat a code',
    ),
});
export type OutcomeCodesBody = z.infer<typeof outcomeCodesBodySchema>;

/** `PUT /calls/:callId/wrap-up`: the agent's wrap-up of its call. */
export const callWrapUpBodySchema = z.strictObject({
  /** One of the company's outcome codes; `null` when the company keeps none. */
  outcomeCode: codeField.nullable(),
  followUp: z.boolean(),
  followUpNote: z
    .string()
    .trim()
    .max(FOLLOW_UP_NOTE_MAX_LENGTH, `must be at most ${FOLLOW_UP_NOTE_MAX_LENGTH} characters`),
});
export type CallWrapUpBody = z.infer<typeof callWrapUpBodySchema>;

/** A call's wrap-up as stored with it. */
export const callWrapUpSchema = z.object({
  outcomeCode: z.string().nullable(),
  followUp: z.boolean(),
  followUpNote: z.string().nullable(),
  wrappedUpAt: z.string(),
});
export type CallWrapUp = z.infer<typeof callWrapUpSchema>;

/**
 * Wrap-up after a call (issue 19 item 3): the company's staff read its outcome codes, only its
 * admins change them; only the agent who took a call wraps it up. Part of `adminRoutes`, so the
 * guest page does not carry them.
 */
export const wrapUpRoutes = {
  outcomeCodes: {
    method: 'GET',
    path: '/company/:id/outcome-codes',
    params: companyParamsSchema,
    response: envelope(z.array(outcomeCodeSchema)),
  },
  /** Replaces the list; calls wrapped up with a code that leaves keep it. */
  setOutcomeCodes: {
    method: 'PUT',
    path: '/company/:id/outcome-codes',
    params: companyParamsSchema,
    body: outcomeCodesBodySchema,
    response: envelope(z.array(outcomeCodeSchema)),
  },
  /** 400 naming `outcomeCode` for a code the company does not keep. */
  callWrapUp: {
    method: 'PUT',
    path: '/calls/:callId/wrap-up',
    params: callIdParamsSchema,
    body: callWrapUpBodySchema,
    response: envelope(callWrapUpSchema),
  },
} as const satisfies Record<string, Route>;
