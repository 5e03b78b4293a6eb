import type { ReactNode } from 'react';
import { useAppSelector } from '../../app/hooks.ts';
import { useT } from '../../i18n/useT.ts';

/**
 * The branded frame around every stage: the company's logo and site, and the powered-by line.
 * During a call it shrinks to a slim bar over a screen the call fills (features/call/call.css),
 * without the link away, which would end the call.
 */
export function Shell({ children }: { children: ReactNode }) {
  const company = useAppSelector((state) => state.company.details);
  // Inside the company's own site (service type Widget) a link back to it would lead nowhere new.
  const embedded = useAppSelector((state) => state.page.serviceType === 'Widget');
  const inCall = useAppSelector((state) => state.flow.stage === 'ongoing');
  const t = useT();
  return (
    <div className={inCall ? 'shell shell-in-call' : 'shell'}>
      {company && (
        <header className="shell-header">
          {company.logoImageUrl ? (
            <img className="shell-logo" src={company.logoImageUrl} alt={company.name} />
          ) : (
            <span className="shell-name">{company.name}</span>
          )}
          {company.websiteUrl && !embedded && !inCall && (
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
