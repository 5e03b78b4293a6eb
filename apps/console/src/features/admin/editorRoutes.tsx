import { lazy } from 'react';
import type { RouteObject } from 'react-router';
import type { MessageKey } from '../../i18n/messages.ts';

/**
 * The admin pages that edit where, when and what guests are asked around a call: the service
 * area's zones, the opening hours and the two forms, each at `/console/admin/<path>`, in the
 * nav's order.
 */
export const EDITOR_PAGES: readonly { path: string; label: MessageKey }[] = [
  { path: 'zones', label: 'group_zones' },
  { path: 'schedule', label: 'group_schedule' },
  { path: 'forms/welcome', label: 'group_welcomeForm' },
  { path: 'forms/rating', label: 'group_ratingForm' },
];

// Each loads when first opened, as the rest of the admin area does (decision 0018).
const ZonesEditor = lazy(() =>
  import('./zones/ZonesEditor.tsx').then((m) => ({ default: m.ZonesEditor })),
);
const ScheduleEditor = lazy(() =>
  import('./schedule/ScheduleEditor.tsx').then((m) => ({ default: m.ScheduleEditor })),
);
const FormBuilderPage = lazy(() =>
  import('./forms/FormBuilder.tsx').then((m) => ({ default: m.FormBuilderPage })),
);

/** Their routes, children of the admin area's route (apps/console/src/app/routes.tsx). */
export const editorRoutes: RouteObject[] = [
  { path: 'zones', element: <ZonesEditor /> },
  { path: 'schedule', element: <ScheduleEditor /> },
  { path: 'forms/:kind', element: <FormBuilderPage /> },
];
