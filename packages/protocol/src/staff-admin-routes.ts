import { z } from 'zod';
import { companyParamsSchema } from './company.ts';
import { envelope, noContentSchema } from './envelope.ts';
import {
  newCompanySchema,
  operatorCompanySchema,
  operatorCreatedCompanySchema,
  operatorLoginBodySchema,
  operatorLoginSchema,
  oneTimePasswordSchema,
  passwordChangeBodySchema,
  staffAdminEntrySchema,
  staffInviteBodySchema,
  staffInvitedSchema,
  staffMemberParamsSchema,
  staffUpdateBodySchema,
} from './staff-admin.ts';
import { staffSignedInSchema } from './staff.ts';
import type { Route } from './routes.ts';

/**
 * Company admin (issue 16, docs/admin-api.md "Staff"): staff invitations, roles, deactivation
 * and password resets (the company's own admins only; writes take an optional `If-Match`), a
 * member's own password change, and the platform operator's companies (decision 0017). Spread
 * into `routes`.
 */
export const staffAdminRoutes = {
  companyStaff: {
    method: 'GET',
    path: '/company/:id/staff',
    params: companyParamsSchema,
    response: envelope(z.array(staffAdminEntrySchema)),
  },
  inviteStaff: {
    method: 'POST',
    path: '/company/:id/staff',
    params: companyParamsSchema,
    body: staffInviteBodySchema,
    response: envelope(staffInvitedSchema),
    statuses: [201],
  },
  updateStaff: {
    method: 'PATCH',
    path: '/company/:id/staff/:staffId',
    params: staffMemberParamsSchema,
    body: staffUpdateBodySchema,
    response: envelope(staffAdminEntrySchema),
  },
  resetStaffPassword: {
    method: 'POST',
    path: '/company/:id/staff/:staffId/password-reset',
    params: staffMemberParamsSchema,
    response: envelope(oneTimePasswordSchema),
  },
  /** Answers a fresh sign-in, as `POST /auth/login` does with a password of one's own. */
  changePassword: {
    method: 'POST',
    path: '/auth/password',
    body: passwordChangeBodySchema,
    response: envelope(staffSignedInSchema),
  },

  // The platform operator
  operatorLogin: {
    method: 'POST',
    path: '/operator/login',
    body: operatorLoginBodySchema,
    response: envelope(operatorLoginSchema),
  },
  operatorLogout: {
    method: 'POST',
    path: '/operator/logout',
    response: noContentSchema,
    statuses: [204],
  },
  operatorCompanies: {
    method: 'GET',
    path: '/operator/companies',
    response: envelope(z.array(operatorCompanySchema)),
  },
  createCompany: {
    method: 'POST',
    path: '/operator/companies',
    body: newCompanySchema,
    response: envelope(operatorCreatedCompanySchema),
    statuses: [201],
  },
} as const satisfies Record<string, Route>;
