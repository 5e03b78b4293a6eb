import type { Route } from './routes.ts';

/** Company admin (issue 16): the timetable: opening hours, closed days, holidays and date exceptions. Spread into `routes`. */
export const scheduleAdminRoutes = {} as const satisfies Record<string, Route>;
