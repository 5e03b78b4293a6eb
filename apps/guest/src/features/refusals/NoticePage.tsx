import { useEffect, useRef } from 'react';
import { useAppSelector } from '../../app/hooks.ts';
import { useT } from '../../i18n/useT.ts';
import type { MessageKey } from '../../i18n/messages.ts';

export type NoticeKind =
  | 'inactive'
  | 'outOfQuota'
  | 'blocked'
  | 'bot'
  | 'unsupported'
  | 'outofzone'
  | 'abandoned'
  | 'failed';

/**
 * The stages where no call can start, each with its reason and, where the guest can do
 * something about it, a way forward. The heading takes focus so screen readers announce it.
 */
export function NoticePage({ kind }: { kind: NoticeKind }) {
  const t = useT();
  const company = useAppSelector((state) => state.company.details);
  const failurePage = useAppSelector((state) => state.browserCheck.failurePage);
  const failure = useAppSelector((state) => state.flow.failure);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [kind]);

  const texts: Record<NoticeKind, { title: string; body: string[] }> = {
    inactive: { title: t('inactiveTitle'), body: [t('inactiveBody')] },
    outOfQuota: { title: t('outOfQuotaTitle'), body: [t('outOfQuotaBody')] },
    blocked: { title: t('blockedTitle'), body: [t('blockedBody')] },
    bot: { title: t('botTitle'), body: [t('botBody')] },
    unsupported: {
      title: t('unsupportedTitle'),
      body: [t(`unsupported_${failurePage ?? 'noWebRTC'}` as MessageKey)],
    },
    outofzone: {
      title: t('outOfZoneTitle'),
      body: [
        company?.outOfZoneMsg ?? t('outOfZoneDefault'),
        ...(company?.locationOfService
          ? [t('serviceArea', { area: company.locationOfService })]
          : []),
      ],
    },
    abandoned: { title: t('abandonedTitle'), body: [t('abandonedBody')] },
    failed: { title: t('failedTitle'), body: [t(`failed_${failure ?? 'unavailable'}`)] },
  };
  const { title, body } = texts[kind];
  const canRetry = kind === 'failed' || kind === 'unsupported' || kind === 'abandoned';

  return (
    <section className="notice" data-testid={`stage-${kind}`} aria-labelledby="notice-title">
      <h1 id="notice-title" ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {body.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
      {canRetry && (
        <button type="button" className="button-primary" onClick={() => window.location.reload()}>
          {t('tryAgain')}
        </button>
      )}
    </section>
  );
}
