import { lazy } from 'react';
import { Link, Navigate, type RouteObject } from 'react-router';
import { editorRoutes } from '../features/admin/editorRoutes.tsx';
import { listPageRoutes } from '../features/admin/listPage/listRoutes.tsx';
import { SETTINGS_GROUPS } from '../features/admin/settingsGroups.ts';
import { operatorRoute } from '../features/operator/operatorRoute.tsx';
import { reportPageRoutes, supervisorRoutes } from '../features/reports/reportRoutes.tsx';
import { t } from '../i18n/messages.ts';
import { App } from './App.tsx';
import { Workspace } from './Workspace.tsx';

// The admin area loads when first opened: agents never download it.
const AdminArea = lazy(() =>
  import('../features/admin/AdminArea.tsx').then((module) => ({ default: module.AdminArea })),
);
// The reports area too (issue 17): admins only.
const ReportsArea = lazy(() =>
  import('../features/reports/ReportsArea.tsx').then((module) => ({
    default: module.ReportsArea,
  })),
);
const SettingsEditor = lazy(() =>
  import('../features/admin/SettingsEditor.tsx').then((module) => ({
    default: module.SettingsEditor,
  })),
);
const SettingsGroupFields = lazy(() =>
  import('../features/admin/SettingsGroupFields.tsx').then((module) => ({
    default: module.SettingsGroupFields,
  })),
);

/** The console is served under this path for every page (apps/api/src/app.ts). */
export const CONSOLE_BASENAME = '/console';

function NotFound() {
  return (
    <main className="page">
      <p role="alert">{t('pageNotFound')}</p>
      <Link to="/">{t('backToConsole')}</Link>
    </main>
  );
}

/**
 * The console's pages (decision 0018): the agent's workspace at `/console/queue` (where
 * `/console/` leads) and `/console/calls/<callId>` during a call, the company's
 * settings at `/console/admin/<group>`, its reports at `/console/reports/…` and the supervisor
 * view at `/console/supervisor`. Every one of them
 * needs a signed-in member of staff, but the platform operator's page, `/console/operator`,
 * which has its own sign-in (decision 0017).
 */
export const consoleRoutes: RouteObject[] = [
  operatorRoute,
  {
    path: '/',
    element: <App />,
    children: [
      { index: true, element: <Navigate to="queue" replace /> },
      // The workspace's views: the queue between calls, a call while it lasts (useCallAddress).
      // One layout route, so moving between them keeps the workspace (and the call) mounted.
      {
        element: <Workspace />,
        children: [{ path: 'queue' }, { path: 'calls/:callId' }],
      },
      {
        path: 'admin',
        element: <AdminArea />,
        children: [
          { index: true, element: <Navigate to={SETTINGS_GROUPS[0]?.path ?? 'brand'} replace /> },
          {
            element: <SettingsEditor />,
            children: SETTINGS_GROUPS.map((group) => ({
              path: group.path,
              element: <SettingsGroupFields group={group} />,
            })),
          },
          ...editorRoutes,
          ...listPageRoutes,
        ],
      },
      { path: 'reports', element: <ReportsArea />, children: reportPageRoutes },
      { path: 'supervisor', element: <ReportsArea />, children: supervisorRoutes },
      { path: '*', element: <NotFound /> },
    ],
  },
];
