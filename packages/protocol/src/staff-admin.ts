import { z } from 'zod';
import { assignmentGroupSchema } from './company.ts';
import { recordIdSchema, recordIdTextSchema } from './ids.ts';
import { staffRoleSchema } from './staff.ts';

/** An e-mail that signs someone in: stored lower-cased, unique across the installation. */
export const loginEmailSchema = z
  .email('must be an e-mail address')
  .max(320, 'must be 320 characters or fewer')
  .transform((email) => email.toLowerCase());

/** How a person is named to colleagues and in the audit log. */
export const personNameSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'must be 100 characters or fewer');

/** `/company/:id/staff/:staffId`. */
export const staffMemberParamsSchema = z.strictObject({
  id: recordIdTextSchema,
  staffId: recordIdTextSchema,
});

/** `GET /company/:id/staff`: a member of the company's staff as its admins see them. */
export const staffAdminEntrySchema = z.object({
  id: recordIdSchema,
  email: z.string(),
  name: z.string(),
  role: staffRoleSchema,
  /** `false`: deactivated, cannot sign in; `PATCH … {active: true}` lets them in again. */
  active: z.boolean(),
  /**
   * Until when their one-time password (invite or reset) works, while they have not chosen their
   * own; `null` once they have.
   */
  oneTimePasswordExpiresAt: z.iso.datetime().nullable(),
  /** The categories whose calls round robin offers them (the same as each category's `agentIds`). */
  categoryIds: z.array(recordIdSchema),
  /**
   * The company's assignment groups the member belongs to (decision 0019): round robin offers a
   * group's calls to its members first. Only groups the company still lists.
   */
  assignmentGroupIds: z.array(z.string()),
  createdAt: z.iso.datetime(),
});
export type StaffAdminEntry = z.infer<typeof staffAdminEntrySchema>;

/** `POST /company/:id/staff`: invite a member (decision 0017). */
export const staffInviteBodySchema = z.strictObject({
  email: loginEmailSchema,
  name: personNameSchema,
  role: staffRoleSchema,
});
export type StaffInviteBody = z.input<typeof staffInviteBodySchema>;

/**
 * A one-time password for the admin (or operator) to hand over: it signs in once, to nothing but
 * choosing the member's own password, until `expiresAt`. Shown in this answer only.
 */
export const oneTimePasswordSchema = z.object({
  oneTimePassword: z.string(),
  expiresAt: z.iso.datetime(),
});
export type OneTimePassword = z.infer<typeof oneTimePasswordSchema>;

/** `POST /company/:id/staff`: the new member and their one-time password. */
export const staffInvitedSchema = z.object({
  member: staffAdminEntrySchema,
  ...oneTimePasswordSchema.shape,
});
export type StaffInvited = z.infer<typeof staffInvitedSchema>;

/**
 * `PATCH /company/:id/staff/:staffId`: any of these. `active: false` signs the member out
 * everywhere within a minute (their tokens at the next request, their chat at once).
 */
export const staffUpdateBodySchema = z
  .strictObject({
    name: personNameSchema.optional(),
    role: staffRoleSchema.optional(),
    active: z.boolean().optional(),
    /** Replaces the categories the member serves; `[]` for none. */
    categoryIds: z
      .array(recordIdSchema)
      .max(500, 'must list 500 categories or fewer')
      .refine((ids) => new Set(ids).size === ids.length, 'must not list a category twice')
      .optional(),
    /** Replaces the company's assignment groups the member belongs to; `[]` for none. */
    assignmentGroupIds: z
      .array(assignmentGroupSchema.shape.id)
      .max(50, 'must list 50 groups or fewer')
      .refine((ids) => new Set(ids).size === ids.length, 'must not list a group twice')
      .optional(),
  })
  .refine(
    (body) => Object.keys(body).length > 0,
    'must name at least one of name, role, active, categoryIds, assignmentGroupIds',
  );
export type StaffUpdateBody = z.input<typeof staffUpdateBodySchema>;

/** A password someone chooses for themselves (OWASP ASVS 2.1.1: at least 12 characters). */
export const newPasswordSchema = z
  .string()
  .min(12, 'must be at least 12 characters')
  .max(200, 'must be 200 characters or fewer');

/**
 * `POST /auth/password`: a member of staff chooses their password, proving the current one (a
 * one-time password from an invite or reset, or their own). Ends every other sign-in of theirs.
 */
export const passwordChangeBodySchema = z
  .strictObject({
    email: z.email().max(320),
    currentPassword: z.string().min(1).max(200),
    newPassword: newPasswordSchema,
  })
  .refine((body) => body.newPassword !== body.currentPassword, {
    path: ['newPassword'],
    message: 'must differ from the current password',
  });
export type PasswordChangeBody = z.infer<typeof passwordChangeBodySchema>;

// The platform operator (decision 0017).

/** `POST /operator/login`. */
export const operatorLoginBodySchema = z.strictObject({
  email: z.email().max(320),
  password: z.string().min(1).max(200),
});

/**
 * An operator's bearer token: opaque (not a JWT), so no route of a company accepts it, and only
 * the operator routes look it up.
 */
export const operatorTokenSchema = z
  .string()
  .regex(/^op_[A-Za-z0-9_-]{43}$/, 'must be the token from POST /operator/login');

export const operatorSchema = z.object({ id: recordIdSchema, email: z.string(), name: z.string() });

/** `POST /operator/login`: send `Authorization: Bearer <token>` to the operator routes. */
export const operatorLoginSchema = z.object({
  token: operatorTokenSchema,
  expiresAt: z.iso.datetime(),
  operator: operatorSchema,
});
export type OperatorLogin = z.infer<typeof operatorLoginSchema>;

/** `GET /operator/companies`: every company of the installation. */
export const operatorCompanySchema = z.object({
  id: recordIdSchema,
  name: z.string(),
  activated: z.boolean(),
  /** Its active admins' e-mails, for the operator to know whom to talk to. */
  adminEmails: z.array(z.string()),
  createdAt: z.iso.datetime(),
});
export type OperatorCompany = z.infer<typeof operatorCompanySchema>;

/** What creates a company: `POST /operator/companies` and `npm run create-company`. */
export const newCompanySchema = z.strictObject({
  name: personNameSchema,
  /** The first admin's sign-in. */
  adminEmail: loginEmailSchema,
  /** How colleagues see the admin; default the e-mail's local part. */
  adminName: personNameSchema.optional(),
});
export type NewCompany = z.input<typeof newCompanySchema>;

/** `POST /operator/companies`: the company and its first admin's one-time password. */
export const operatorCreatedCompanySchema = z.object({
  companyId: recordIdSchema,
  name: z.string(),
  adminId: recordIdSchema,
  adminEmail: z.string(),
  ...oneTimePasswordSchema.shape,
});
export type OperatorCreatedCompany = z.infer<typeof operatorCreatedCompanySchema>;
