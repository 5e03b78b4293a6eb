import { useEffect, useRef } from 'react';
import type { OperatorCreatedCompany } from '@frontdesk/protocol';
import { t } from '../../i18n/messages.ts';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { companyLinks, formatInstant } from './operatorApi.ts';

/**
 * The company just created and its admin's one-time password, shown this once: the API never
 * tells it again, so it stays until the operator says it is copied, and the browser asks before
 * the page is closed or reloaded meanwhile. It takes the focus when it appears.
 */
export function CreatedCompanyNotice(props: {
  created: OperatorCreatedCompany;
  onDone: () => void;
}) {
  const { created } = props;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, []);
  const links = companyLinks(created.companyId);
  const email = created.adminEmail;

  return (
    <section
      className="card operator-created"
      aria-labelledby="operator-created-title"
      data-testid="operator-created"
    >
      <h2 id="operator-created-title" tabIndex={-1} ref={heading}>
        {t('operatorCreatedTitle', { name: created.name, id: String(created.companyId) })}
      </h2>
      <p>{t('operatorOneTimePassword', { email })}</p>
      <p className="operator-otp">
        <code data-testid="one-time-password" dir="ltr">
          {created.oneTimePassword}
        </code>
        <CopyButton text={created.oneTimePassword} label={t('operatorCopyPassword')} />
      </p>
      <p>{t('operatorOneTimeRules', { email, expires: formatInstant(created.expiresAt) })}</p>
      <p>
        <strong>{t('operatorShownOnce')}</strong>
      </p>
      <dl className="operator-links">
        <div>
          <dt>{t('operatorConsoleLink')}</dt>
          <dd>
            <a href={links.console} target="_blank" rel="noopener noreferrer" dir="ltr">
              {links.console}
            </a>
          </dd>
        </div>
        <div>
          <dt>{t('operatorGuestLink')}</dt>
          <dd>
            <a href={links.guestPage} target="_blank" rel="noopener noreferrer" dir="ltr">
              {links.guestPage}
            </a>
          </dd>
        </div>
      </dl>
      <div className="actions">
        <button type="button" onClick={props.onDone}>
          {t('operatorCreatedDone')}
        </button>
      </div>
    </section>
  );
}
