import { lazy } from 'react';
import type { RouteObject } from 'react-router';
import type { MessageKey } from '../../i18n/messages.ts';

// Each page loads when first opened, as the admin area's do (decision 0018): agents, whom the
// reports area turns away, never download them.
const FiguresPage = lazy(() =>
  import('./figures/FiguresPage.tsx').then((m) => ({ default: m.FiguresPage })),
);
const CallsPage = lazy(() =>
  import('./calls/CallsPage.tsx').then((m) => ({ default: m.CallsPage })),
);
const WallboardPage = lazy(() =>
  import('../wallboard/WallboardPage.tsx').then((m) => ({ default: m.WallboardPage })),
);
const SupervisorPage = lazy(() =>
  import('../wallboard/SupervisorPage.tsx').then((m) => ({ default: m.SupervisorPage })),
);
const CallPage = lazy(() => import('./call/CallPage.tsx').then((m) => ({ default: m.CallPage })));

/** The pages of the reports nav, in its order (paths under `/console/reports`). */
export const REPORT_PAGES: readonly { path: string; label: MessageKey; end: boolean }[] = [
  { path: '/reports', label: 'reportsFigures', end: true },
  { path: '/reports/calls', label: 'reportsCalls', end: false },
  { path: '/reports/wallboard', label: 'wallboardTitle', end: false },
  { path: '/supervisor', label: 'supervisorTitle', end: true },
];

/** The reports area's routes, children of its route (apps/console/src/app/routes.tsx). */
export const reportPageRoutes: RouteObject[] = [
  { index: true, element: <FiguresPage /> },
  { path: 'calls', element: <CallsPage /> },
  { path: 'calls/:callId', element: <CallPage /> },
  { path: 'wallboard', element: <WallboardPage /> },
];

/** The supervisor view (issue 19), `/console/supervisor`: the reports area's frame and tabs. */
export const supervisorRoutes: RouteObject[] = [{ index: true, element: <SupervisorPage /> }];
