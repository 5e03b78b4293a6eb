import { lazy } from 'react';
import type { RouteObject } from 'react-router';

/** The admin pages of the company's lists, each at `/console/admin/<path>`, in the nav's order. */
export const LIST_PAGES = [
  'staff',
  'categories',
  'replies',
  'outcomes',
  'blocks',
  'quota',
  'embedding',
  'privacy',
  'guests',
  'audit',
] as const;
export type ListPage = (typeof LIST_PAGES)[number];

// Each page loads when first opened, as the rest of the admin area does (decision 0018).
const pages: Record<ListPage, ReturnType<typeof lazy>> = {
  staff: lazy(() => import('../team/StaffPage.tsx').then((m) => ({ default: m.StaffPage }))),
  categories: lazy(() =>
    import('../categories/CategoriesPage.tsx').then((m) => ({ default: m.CategoriesPage })),
  ),
  replies: lazy(() =>
    import('../replies/CannedRepliesPage.tsx').then((m) => ({ default: m.CannedRepliesPage })),
  ),
  outcomes: lazy(() =>
    import('../outcomes/OutcomeCodesPage.tsx').then((m) => ({ default: m.OutcomeCodesPage })),
  ),
  blocks: lazy(() => import('../blocks/BlocksPage.tsx').then((m) => ({ default: m.BlocksPage }))),
  quota: lazy(() => import('../quota/QuotaPage.tsx').then((m) => ({ default: m.QuotaPage }))),
  embedding: lazy(() =>
    import('../embedding/EmbeddingPage.tsx').then((m) => ({ default: m.EmbeddingPage })),
  ),
  privacy: lazy(() =>
    import('../privacy/PrivacyPage.tsx').then((m) => ({ default: m.PrivacyPage })),
  ),
  guests: lazy(() =>
    import('../guests/GuestDataPage.tsx').then((m) => ({ default: m.GuestDataPage })),
  ),
  audit: lazy(() => import('../audit/AuditPage.tsx').then((m) => ({ default: m.AuditPage }))),
};

/** Their routes, children of the admin area's route (apps/console/src/app/routes.tsx). */
export const listPageRoutes: RouteObject[] = LIST_PAGES.map((path) => {
  const Page = pages[path];
  return { path, element: <Page /> };
});
