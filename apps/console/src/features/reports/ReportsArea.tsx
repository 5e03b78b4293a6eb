import { Suspense } from 'react';
import { Link, NavLink, Outlet } from 'react-router';
import { useAppSelector } from '../../app/hooks.ts';
import { t } from '../../i18n/messages.ts';
import { REPORT_PAGES } from './reportRoutes.tsx';
import './reports.css';

/**
 * The company's reports (`/console/reports/…`, issue 17): its figures, its calls one by one and
 * the live wallboard. Admins only: an agent who opens it is told so, and loads none of its pages
 * (the API refuses them the data anyway).
 */
export function ReportsArea() {
  const user = useAppSelector((state) => state.auth.login?.user);
  const company = useAppSelector((state) => state.auth.company);

  if (user?.role !== 'admin') {
    return (
      <main className="page" data-testid="admins-only">
        <h1>{t('reportsAdminsOnlyTitle')}</h1>
        <p>{t('reportsAdminsOnly')}</p>
        <p>
          <Link to="/">{t('backToConsole')}</Link>
        </p>
      </main>
    );
  }

  return (
    <div className="reports" data-testid="reports-area">
      <header className="topbar">
        <h1>
          {t('reportsTitle')}
          {company && <span className="reports-company">{company.name}</span>}
        </h1>
        <Link to="/admin">{t('companySettings')}</Link>
        <Link to="/">{t('backToConsole')}</Link>
      </header>
      <nav className="reports-nav" aria-label={t('reportsPages')}>
        <ul>
          {REPORT_PAGES.map((page) => (
            <li key={page.path}>
              <NavLink to={page.path} end={page.end}>
                {t(page.label)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Suspense
        fallback={
          <p role="status" className="reports-status">
            {t('loading')}
          </p>
        }
      >
        <Outlet />
      </Suspense>
    </div>
  );
}
