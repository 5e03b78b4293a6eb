import { Suspense, type ReactNode } from 'react';
import { Link, NavLink, Outlet } from 'react-router';
import { useAppSelector } from '../app/hooks.ts';
import { UserMenu } from '../app/UserMenu.tsx';
import { t } from '../i18n/messages.ts';
import { LoadingState } from './ListState.tsx';
import './area.css';

/** A tab of an area's nav: where it leads and its text (`end`: current on that path only). */
export type AreaTab = { to: string; label: string; end?: boolean };

/**
 * An admins' area of the console (company settings, reports): for an admin, a top bar with the
 * area's title, the company's name and `links`, a row of tabs (`tabs`, named `navLabel` for
 * screen readers) and the open tab's page, which loads when first opened. Anyone else who opens
 * it is told `adminsOnly` and loads none of its pages (the API refuses them the data anyway).
 * The open page is the area's one `<main>`: its pages are labelled sections within it.
 * `name` is the area's class and test id (`<name>-area`).
 */
export function AreaFrame({
  name,
  title,
  adminsOnly,
  navLabel,
  tabs,
  links,
}: {
  name: string;
  title: string;
  adminsOnly: { title: string; text: string };
  navLabel: string;
  tabs: readonly AreaTab[];
  links?: ReactNode;
}) {
  const user = useAppSelector((state) => state.auth.login?.user);
  const company = useAppSelector((state) => state.auth.company);

  if (user?.role !== 'admin') {
    return (
      <main className="page" data-testid="admins-only">
        <h1>{adminsOnly.title}</h1>
        <p>{adminsOnly.text}</p>
        <p>
          <Link to="/">{t('backToConsole')}</Link>
        </p>
      </main>
    );
  }

  return (
    <div className={`area ${name}`} data-testid={`${name}-area`}>
      <header className="topbar">
        <h1>
          {title}
          {company && <span className="area-company">{company.name}</span>}
        </h1>
        {links}
        <Link to="/">{t('backToConsole')}</Link>
        <UserMenu />
      </header>
      <nav className="area-nav" aria-label={navLabel}>
        <ul>
          {tabs.map((tab) => (
            <li key={tab.to}>
              <NavLink to={tab.to} end={tab.end}>
                {tab.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main className="area-main">
        <Suspense fallback={<LoadingState label={t('loading')} className="area-status" />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
