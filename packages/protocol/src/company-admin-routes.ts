import type { Route } from './routes.ts';

/** Company admin (issue 16): settings, categories, forms, geofence zones, block list, quota, allowed origins and the audit log. Spread into `routes`. */
export const companyAdminRoutes = {} as const satisfies Record<string, Route>;
