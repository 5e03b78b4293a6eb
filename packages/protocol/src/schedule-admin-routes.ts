import { companyParamsSchema } from './company.ts';
import { envelope } from './envelope.ts';
import type { Route } from './routes.ts';
import { companyScheduleSchema, timetableBodySchema } from './schedule-admin.ts';

/**
 * Company admin (issue 16): the timetable: opening hours, nights, closed days, holidays and date
 * exceptions, in the company's time zone. Admins of the company only; each write honours
 * `If-Match` and is audited. Part of `adminRoutes`.
 */
export const scheduleAdminRoutes = {
  /** The whole timetable for editing, with the exceptions up to a year past. */
  companySchedule: {
    method: 'GET',
    path: '/company/:id/schedule',
    params: companyParamsSchema,
    response: envelope(companyScheduleSchema),
  },
  /** Replaces the whole timetable. */
  replaceCompanySchedule: {
    method: 'PUT',
    path: '/company/:id/schedule',
    params: companyParamsSchema,
    body: timetableBodySchema,
    response: envelope(companyScheduleSchema),
  },
  /** Removes the timetable: the company is then open at every hour. */
  removeCompanySchedule: {
    method: 'DELETE',
    path: '/company/:id/schedule',
    params: companyParamsSchema,
    response: envelope(companyScheduleSchema),
  },
} as const satisfies Record<string, Route>;
