import { cannedReplyRoutes } from './canned-replies.ts';
import { companyAdminRoutes } from './company-admin-routes.ts';
import { guestDataRoutes } from './guest-data.ts';
import { retentionRoutes } from './retention.ts';
import { scheduleAdminRoutes } from './schedule-admin-routes.ts';
import { staffAdminRoutes } from './staff-admin-routes.ts';
import { wrapUpRoutes } from './wrap-up.ts';

/**
 * The console's administration (issue 16, docs/admin-api.md): company settings, timetable,
 * staff and operators. Kept out of `routes`, as the reports are (`reportRoutes`), so the guest
 * page, which calls none of them, does not carry their schemas before a call.
 */
export const adminRoutes = {
  ...companyAdminRoutes,
  ...cannedReplyRoutes,
  ...guestDataRoutes,
  ...retentionRoutes,
  ...scheduleAdminRoutes,
  ...staffAdminRoutes,
  ...wrapUpRoutes,
};
