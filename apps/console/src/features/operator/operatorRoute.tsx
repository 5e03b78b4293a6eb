import { lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router';
import { t } from '../../i18n/messages.ts';

// Loads when opened: staff never download the operator's page.
const OperatorPage = lazy(() =>
  import('./OperatorPage.tsx').then((module) => ({ default: module.OperatorPage })),
);

/**
 * `/console/operator`, the platform operator's page (decision 0017). A route of its own beside
 * the staff's: the staff sign-in that guards every other page of the console never shows here.
 */
export const operatorRoute: RouteObject = {
  path: '/operator',
  element: (
    <Suspense
      fallback={
        <main className="page">
          <p role="status">{t('loading')}</p>
        </main>
      }
    >
      <OperatorPage />
    </Suspense>
  ),
};
