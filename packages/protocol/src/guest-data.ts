import { z } from 'zod';
import { callIdSchema } from './call-id.ts';
import { envelope } from './envelope.ts';
import { answersSchema } from './forms.ts';
import { recordIdTextSchema } from './ids.ts';
import type { Route } from './routes.ts';

/** How many guests one search answers, the latest call first. */
export const GUEST_SEARCH_MAX = 50;

/**
 * `GET /company/:id/guests`: one way of finding a guest (decision 0032) — the id of one of its
 * calls, a range its calls began in, or text one of its welcome-form answers contains.
 */
export const guestSearchQuerySchema = z
  .strictObject({
    callId: callIdSchema.optional(),
    from: z.iso.datetime({ offset: true }).optional(),
    to: z.iso.datetime({ offset: true }).optional(),
    answer: z
      .string()
      .trim()
      .min(3, 'must be at least 3 characters')
      .max(200, 'must be at most 200 characters')
      .optional(),
  })
  .superRefine((query, context) => {
    const ways = [
      query.callId !== undefined,
      query.from !== undefined || query.to !== undefined,
      query.answer !== undefined,
    ].filter(Boolean).length;
    if (ways !== 1) {
      context.addIssue({
        code: 'custom',
        path: ['callId'],
        message: 'give exactly one of callId, from and to, or answer',
      });
    } else if ((query.from === undefined) !== (query.to === undefined)) {
      context.addIssue({ code: 'custom', path: ['to'], message: 'from and to go together' });
    } else if (
      query.from !== undefined &&
      query.to !== undefined &&
      Date.parse(query.from) >= Date.parse(query.to)
    ) {
      context.addIssue({ code: 'custom', path: ['to'], message: 'must be after from' });
    }
  });
export type GuestSearchQuery = z.infer<typeof guestSearchQuerySchema>;

/** One guest found: enough for the admin to tell it is the person who asked. */
export const guestFoundSchema = z.object({
  id: z.number().int().positive(),
  username: z.string(),
  registeredAt: z.string(),
  /** The guest's calls, the latest first. */
  calls: z.array(z.object({ callId: z.string(), startedAt: z.string() })),
  /** The guest's latest welcome-form answers; `null` when it sent none. */
  latestAnswers: answersSchema.nullable(),
});
export type GuestFound = z.infer<typeof guestFoundSchema>;

export const guestParamsSchema = z.strictObject({
  id: recordIdTextSchema,
  guestId: recordIdTextSchema,
});

/** What an erasure removed (counts, as the audit log keeps them). */
export const guestErasureSchema = z.object({
  calls: z.number().int().nonnegative(),
  answers: z.number().int().nonnegative(),
  files: z.number().int().nonnegative(),
  recordings: z.number().int().nonnegative(),
});
export type GuestErasure = z.infer<typeof guestErasureSchema>;

/**
 * A guest's rights (issue 20 item 3, decision 0032): the company's admins alone find its
 * guests, download everything held about one (`guestExportRoute`, a ZIP) and erase it. Part of `adminRoutes`.
 */
export const guestDataRoutes = {
  findGuests: {
    method: 'GET',
    path: '/company/:id/guests',
    params: z.strictObject({ id: recordIdTextSchema }),
    query: guestSearchQuerySchema,
    response: envelope(z.array(guestFoundSchema)),
  },
  eraseGuest: {
    method: 'DELETE',
    path: '/company/:id/guests/:guestId',
    params: guestParamsSchema,
    response: envelope(guestErasureSchema),
  },
} as const satisfies Record<string, Route>;

/**
 * Streams the guest's archive, a ZIP (`data.json`, `files/`, `recordings/`): no JSON, so it is
 * served outside the table (the API registers it on its own) and downloaded as a file.
 */
export const guestExportRoute = {
  method: 'GET',
  path: '/company/:id/guests/:guestId/export',
  params: guestParamsSchema,
  response: z.instanceof(Uint8Array),
} as const satisfies Route;
