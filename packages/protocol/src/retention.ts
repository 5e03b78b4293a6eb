import { z } from 'zod';
import { companyParamsSchema } from './company.ts';
import { envelope } from './envelope.ts';
import type { Route } from './routes.ts';

/**
 * The kinds of personal data a company keeps for a period (decision 0031), in the order the
 * console lists them. Chat transcripts are not among them: the server keeps none.
 */
export const COMPANY_RETENTION_KINDS = [
  'recordings',
  'uploads',
  'welcomeAnswers',
  'ratingAnswers',
  'callBugs',
  'guests',
  'auditEntries',
] as const;
export type CompanyRetentionKind = (typeof COMPANY_RETENTION_KINDS)[number];

/** What the instance itself keeps for a period its operator sets (docs/operations.md). */
export const INSTANCE_RETENTION_KINDS = ['monitoringEnvelopes', 'serverLogs'] as const;
export type InstanceRetentionKind = (typeof INSTANCE_RETENTION_KINDS)[number];

export type RetentionKind = CompanyRetentionKind | InstanceRetentionKind;

/** The longest period: ten years. There is no "for ever" (decision 0031). */
export const RETENTION_DAYS_MAX = 3650;

/** Days a kind is kept: a whole number from 1 to {@link RETENTION_DAYS_MAX}. */
export const retentionDaysSchema = z
  .number({ message: 'must be a number of days' })
  .int('must be a whole number of days')
  .min(1, 'must be at least 1 day')
  .max(RETENTION_DAYS_MAX, `must be at most ${RETENTION_DAYS_MAX} days (ten years)`);

/** An object with `value` for each company kind. */
const perCompanyKind = <T extends z.ZodType>(value: T) =>
  z.object({
    recordings: value,
    uploads: value,
    welcomeAnswers: value,
    ratingAnswers: value,
    callBugs: value,
    guests: value,
    auditEntries: value,
  });

/** Days each kind is kept; `guests` counts days without activity. */
export const retentionPeriodsSchema = perCompanyKind(retentionDaysSchema) satisfies z.ZodType<
  Record<CompanyRetentionKind, number>
>;
export type RetentionPeriods = z.infer<typeof retentionPeriodsSchema>;

/** The periods a company has until its admins change them (decision 0031 says why each). */
export const DEFAULT_RETENTION_PERIODS: RetentionPeriods = {
  recordings: 90,
  uploads: 90,
  welcomeAnswers: 365,
  ratingAnswers: 365,
  callBugs: 90,
  guests: 365,
  auditEntries: 730,
};

/** `GET /company/:id/retention`: the company's periods beside the defaults. */
export const retentionSettingsSchema = z.object({
  periods: retentionPeriodsSchema,
  defaults: retentionPeriodsSchema,
});
export type RetentionSettings = z.infer<typeof retentionSettingsSchema>;

/** `PUT /company/:id/retention`: any of the periods, at least one; the rest stay. */
export const retentionPeriodsBodySchema = retentionPeriodsSchema
  .strict()
  .partial()
  .refine((body) => Object.keys(body).length > 0, 'must set at least one period');
export type RetentionPeriodsBody = z.infer<typeof retentionPeriodsBodySchema>;

/** One nightly run for the company: how many of each kind it deleted (counts, never what). */
export const retentionRunSchema = z.object({
  runAt: z.string(),
  deleted: perCompanyKind(z.number().int().nonnegative()),
});
export type RetentionRun = z.infer<typeof retentionRunSchema>;

/** How many of the company's last runs `GET /company/:id/retention/runs` answers. */
export const RETENTION_RUNS_SHOWN = 10;

/**
 * Retention (issue 20 item 2): the company's admins alone read and set its periods and read its
 * runs. The write takes `If-Match` and answers the company's version as its ETag, as the other
 * company-admin routes. Part of `adminRoutes`.
 */
export const retentionRoutes = {
  retention: {
    method: 'GET',
    path: '/company/:id/retention',
    params: companyParamsSchema,
    response: envelope(retentionSettingsSchema),
  },
  updateRetention: {
    method: 'PUT',
    path: '/company/:id/retention',
    params: companyParamsSchema,
    body: retentionPeriodsBodySchema,
    response: envelope(retentionSettingsSchema),
  },
  /** The last {@link RETENTION_RUNS_SHOWN} runs, newest first. */
  retentionRuns: {
    method: 'GET',
    path: '/company/:id/retention/runs',
    params: companyParamsSchema,
    response: envelope(z.array(retentionRunSchema)),
  },
} as const satisfies Record<string, Route>;
