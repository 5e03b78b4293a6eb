import type { ReactNode } from 'react';
import { useAppSelector } from '../../app/hooks.ts';
import { useT } from '../../i18n/useT.ts';

/** The branded frame around every stage: the company's logo and site, and the powered-by line. */
export function Shell({ children }: { children: ReactNode }) {
  const company = useAppSelector((state) => state.company.details);
  // Inside the company's own site (service type Widget) a link back to it would lead nowhere new.
  const embedded = useAppSelector((state) => state.page.serviceType === 'Widget');
  const t = useT();
  return (
    <div className="shell">
      {company && (
        <header className="shell-header">
          {company.logoImageUrl ? (
            <img className="shell-logo" src={company.logoImageUrl} alt={company.name} />
          ) : (
            <span className="shell-name">{company.name}</span>
          )}
          {company.websiteUrl && !embedded && (
            <a className="shell-website" href={company.websiteUrl} rel="noopener">
              {t('visitWebsite', { site: company.websiteTitle ?? company.name })}
            </a>
          )}
        </header>
      )}
      <main className="shell-main" id="main">
        {children}
      </main>
      {company?.poweredByLogo && <footer className="shell-footer">{t('poweredBy')}</footer>}
    </div>
  );
}
