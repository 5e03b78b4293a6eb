import { z } from 'zod';
import { callTypeSchema } from './call-report.ts';
import { callIdParamsSchema } from './calls.ts';
import { envelope } from './envelope.ts';
import type { Route } from './routes.ts';

const instant = z.iso.datetime();

/**
 * One welcome-form answer as the form asks it: its label, a choice by its option's label, a
 * tick as `true` or `false` (the console says it in the agent's language).
 */
export const contextAnswerSchema = z.object({
  name: z.string(),
  label: z.string(),
  value: z.union([z.string(), z.boolean()]),
  /** The company's own site vouched for it with a signed identity (decision 0021). */
  verified: z.boolean(),
});
export type ContextAnswer = z.infer<typeof contextAnswerSchema>;

/** How an earlier conversation of the guest ended. */
export const pastOutcomeSchema = z.enum(['answered', 'abandoned', 'live']);

export const pastCallSchema = z.object({
  /** The conversation's first call (a transferred call is one conversation). */
  callId: z.string(),
  at: instant,
  callType: callTypeSchema.nullable(),
  outcome: pastOutcomeSchema,
  /** The category it was made in, as the company names it now. */
  category: z.string().nullable(),
  /** The last agent who answered it. */
  agent: z.string().nullable(),
  /** The guest's rating, 1–5. */
  rating: z.number().int().min(1).max(5).nullable(),
  /** The agents' notes on its calls, oldest first. */
  notes: z.string().nullable(),
});
export type PastCall = z.infer<typeof pastCallSchema>;

/** The guest's browser, read from the User-Agent it reported the call with. */
export const guestClientSchema = z.object({
  browser: z.string().nullable(),
  os: z.string().nullable(),
  device: z.enum(['desktop', 'phone', 'tablet']),
});
export type GuestClient = z.infer<typeof guestClientSchema>;

/**
 * `GET /api/calls/:callId/guest-context` (issue 19 item 2): what the agent's guest panel shows
 * about the guest of a call of the caller's company, for the whole call.
 */
export const guestContextSchema = z.object({
  callId: z.string(),
  guestUsername: z.string(),
  /** The answer to the welcome form's name field, if it has one and the guest gave it. */
  name: z.string().nullable(),
  /** The welcome answers the guest gave last before this call, in the form's order. */
  answers: z.array(contextAnswerSchema),
  /** How many conversations the guest had before this one; `previousCalls` lists the latest. */
  previousCallCount: z.number().int().nonnegative(),
  previousCalls: z.array(pastCallSchema).max(10),
  /**
   * Where the guest last passed the company's service-area check; `null` when the company does
   * not ask for the location (or the guest has not passed it).
   */
  location: z
    .object({
      lat: z.number(),
      lng: z.number(),
      /** How far off the position may be, in metres, when the guest's browser said. */
      accuracy: z.number().nonnegative().nullable(),
      at: instant,
      /**
       * Whether the position is inside the company's service area as its zones are now, and the
       * name of the zone it is in (`null` when the company keeps no zones: it serves everywhere).
       */
      serviceArea: z.object({ inside: z.boolean(), zone: z.string().nullable() }),
    })
    .nullable(),
  /** `null` when the call was reported without a User-Agent. */
  client: guestClientSchema.nullable(),
});
export type GuestContext = z.infer<typeof guestContextSchema>;

/**
 * The console's routes about a call's guest. SECURITY: staff of the call's company only (401
 * anonymous, 403 guests, 404 a call of another company). Kept out of `routes` so the guest page
 * does not carry their schemas.
 */
export const guestContextRoutes = {
  guestContext: {
    method: 'GET',
    path: '/calls/:callId/guest-context',
    params: callIdParamsSchema,
    response: envelope(guestContextSchema),
  },
} as const satisfies Record<string, Route>;
