import { Suspense } from 'react';
import { Link, NavLink, Outlet } from 'react-router';
import { useAppSelector } from '../../app/hooks.ts';
import { t } from '../../i18n/messages.ts';
import { EDITOR_PAGES } from './editorRoutes.tsx';
import { LIST_PAGES } from './listPage/listRoutes.tsx';
import { SETTINGS_GROUPS } from './settingsGroups.ts';
import './admin.css';

/**
 * The company's admin area (`/console/admin/…`, issue 16): its groups of settings beside a live
 * preview. Agents who open it are told it is for admins; the API refuses their edits anyway.
 */
export function AdminArea() {
  const user = useAppSelector((state) => state.auth.login?.user);
  const company = useAppSelector((state) => state.auth.company);

  if (user?.role !== 'admin') {
    return (
      <main className="page" data-testid="admins-only">
        <h1>{t('adminsOnlyTitle')}</h1>
        <p>{t('adminsOnly')}</p>
        <p>
          <Link to="/">{t('backToConsole')}</Link>
        </p>
      </main>
    );
  }

  return (
    <div className="admin" data-testid="admin-area">
      <header className="topbar">
        <h1>
          {t('companySettings')}
          {company && <span className="admin-company">{company.name}</span>}
        </h1>
        <Link to="/">{t('backToConsole')}</Link>
      </header>
      <nav className="admin-nav" aria-label={t('settingsGroups')}>
        <ul>
          {SETTINGS_GROUPS.map((group) => (
            <li key={group.path}>
              <NavLink to={group.path}>{t(`group_${group.path}`)}</NavLink>
            </li>
          ))}
          {EDITOR_PAGES.map((page) => (
            <li key={page.path}>
              <NavLink to={page.path}>{t(page.label)}</NavLink>
            </li>
          ))}
          {LIST_PAGES.map((page) => (
            <li key={page}>
              <NavLink to={page}>{t(`group_${page}`)}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Suspense fallback={<p role="status">{t('loading')}</p>}>
        <Outlet />
      </Suspense>
    </div>
  );
}
