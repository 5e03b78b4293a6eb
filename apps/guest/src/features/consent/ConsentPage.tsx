import { useEffect, useRef, useState } from 'react';
import type { CompanyDetails } from '@frontdesk/protocol';
import { useT } from '../../i18n/useT.ts';

/** What the consent step can ask of the flow (StageView wires it: the flow is a layer above). */
export type ConsentActions = {
  /** The guest agreed: the visit goes on, registering the guest with its consent. */
  onAccept: () => Promise<unknown>;
  /** The guest declined: nothing is computed, sent or kept. */
  onDecline: () => void;
};

/** The heading takes the focus when the step shows, so a screen reader starts with it. */
function useFocusedHeading() {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return heading;
}

/**
 * The company's request for consent, before the browser is fingerprinted, the guest registered,
 * the location asked or a call recorded (decision 0030). Its text is the page's description, so
 * a screen reader reads it with the heading; the privacy notice opens beside the page.
 */
export function ConsentPage({
  company,
  onAccept,
  onDecline,
}: { company: CompanyDetails } & ConsentActions) {
  const t = useT();
  const heading = useFocusedHeading();
  const [accepting, setAccepting] = useState(false);
  const accept = async () => {
    setAccepting(true);
    try {
      await onAccept();
    } finally {
      setAccepting(false);
    }
  };
  return (
    <section
      className="notice consent"
      data-testid="stage-consent"
      aria-labelledby="consent-title"
      aria-describedby="consent-text"
    >
      <h1 id="consent-title" ref={heading} tabIndex={-1}>
        {t('consentTitle')}
      </h1>
      <div id="consent-text">
        {company.consentText ? (
          // The company's own words may be in another language than the page's.
          <p dir="auto">{company.consentText}</p>
        ) : (
          <p>{t('consentDefault', { company: company.name })}</p>
        )}
        {company.recordCalls && (
          <p>
            {company.recordAlertText ?? t('recording')}
            {company.recordingOptional && ` ${t('consentRecordingOptional')}`}
          </p>
        )}
      </div>
      {company.privacyNoticeUrl && (
        <p>
          <a href={company.privacyNoticeUrl} target="_blank" rel="noopener noreferrer">
            {t('privacyNotice')}
          </a>
        </p>
      )}
      <div className="stage-actions">
        <button
          type="button"
          className="button-primary"
          onClick={() => void accept()}
          disabled={accepting}
          data-testid="consent-accept"
        >
          {accepting ? t('consentAccepting') : t('consentAccept')}
        </button>
        <button
          type="button"
          className="button-secondary"
          onClick={onDecline}
          disabled={accepting}
          data-testid="consent-decline"
        >
          {t('consentDecline')}
        </button>
      </div>
    </section>
  );
}

/**
 * After a decline: nothing about the guest was stored, how else to reach the company, and a way
 * back to the consent step.
 */
export function ConsentDeclinedPage({
  company,
  onReconsider,
}: {
  company: CompanyDetails;
  onReconsider: () => void;
}) {
  const t = useT();
  const heading = useFocusedHeading();
  const site = company.websiteTitle ?? company.name;
  return (
    <section
      className="notice consent"
      data-testid="stage-consentDeclined"
      aria-labelledby="declined-title"
    >
      <h1 id="declined-title" ref={heading} tabIndex={-1}>
        {t('consentDeclinedTitle')}
      </h1>
      <p>{t('consentDeclinedBody')}</p>
      <p>
        {company.websiteUrl
          ? t('consentDeclinedWebsite', { company: company.name })
          : t('consentDeclinedOtherWays', { company: company.name })}
      </p>
      <div className="stage-actions">
        {company.websiteUrl && (
          <a className="button-primary" href={company.websiteUrl} rel="noopener">
            {t('visitWebsite', { site })}
          </a>
        )}
        <button
          type="button"
          className={company.websiteUrl ? 'button-secondary' : 'button-primary'}
          onClick={onReconsider}
          data-testid="consent-reconsider"
        >
          {t('consentReconsider')}
        </button>
      </div>
    </section>
  );
}
