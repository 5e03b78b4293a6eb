import type { Route } from './routes.ts';

/** Company admin (issue 16): staff invitations, roles, categories, deactivation, password resets, and the platform operator's companies. Spread into `routes`. */
export const staffAdminRoutes = {} as const satisfies Record<string, Route>;
