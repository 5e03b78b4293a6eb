import type { OperatorCompany } from '@frontdesk/protocol';
import { t } from '../../i18n/messages.ts';
import { EmptyState } from '../../ui/ListState.tsx';
import { EmailAddress } from './EmailAddress.tsx';
import { companyLinks, formatDate } from './operatorApi.ts';

/** The companies as last loaded (null before the first answer), whether a load is under way, and why the last one failed. */
export type CompaniesView = {
  companies: OperatorCompany[] | null;
  loading: boolean;
  error: string | null;
};

/** Every company of the installation, newest first: name, id, active or not, admins, created. */
export function CompanyList({ view, onRetry }: { view: CompaniesView; onRetry: () => void }) {
  const { companies } = view;
  return (
    <section
      className="operator-companies"
      aria-labelledby="operator-companies-title"
      aria-busy={view.loading}
    >
      <h2 id="operator-companies-title">{t('operatorCompaniesTitle')}</h2>
      {view.loading && companies === null && <p role="status">{t('operatorCompaniesLoading')}</p>}
      {view.error && (
        <div className="banner">
          <p role="alert">{t('operatorCompaniesFailed', { reason: view.error })}</p>
          <button type="button" className="secondary" onClick={onRetry}>
            {t('retry')}
          </button>
        </div>
      )}
      {companies?.length === 0 && (
        <EmptyState title={t('operatorNoCompanies')} hint={t('operatorNoCompaniesHint')} />
      )}
      {companies && companies.length > 0 && (
        <>
          <p>{t('operatorCompanyCount', { count: String(companies.length) })}</p>
          <ul className="operator-company-list">
            {companies.map((company) => (
              <CompanyCard key={company.id} company={company} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function CompanyCard({ company }: { company: OperatorCompany }) {
  const titleId = `operator-company-${company.id}`;
  return (
    <li className="card" aria-labelledby={titleId} data-testid="operator-company">
      <h3 id={titleId}>
        <bdi>{company.name}</bdi>
      </h3>
      <dl>
        <div>
          <dt>{t('operatorCompanyId')}</dt>
          <dd>{company.id}</dd>
        </div>
        <div>
          <dt>{t('operatorCompanyStatus')}</dt>
          <dd className={company.activated ? 'operator-active' : 'operator-inactive'}>
            {company.activated ? t('operatorCompanyActive') : t('operatorCompanyInactive')}
          </dd>
        </div>
        <div>
          <dt>{t('operatorCompanyAdmins')}</dt>
          <dd>
            {company.adminEmails.length > 0
              ? company.adminEmails.map((email) => <EmailAddress key={email} email={email} />)
              : t('operatorCompanyNoAdmin')}
          </dd>
        </div>
        <div>
          <dt>{t('operatorCompanyCreated')}</dt>
          <dd>
            <time dateTime={company.createdAt}>{formatDate(company.createdAt)}</time>
          </dd>
        </div>
      </dl>
      <a
        href={companyLinks(company.id).guestPage}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={t('operatorGuestPageOf', { name: company.name })}
      >
        {t('operatorGuestLink')}
      </a>
    </li>
  );
}
