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
  | 'failed'
  | 'elsewhere';

type Action = { label: string; run: () => void };

/** What the page can ask of the flow (StageView wires it: the flow is a layer above this one). */
export type NoticeActions = {
  /** Asks for the camera or microphone again: back to the stage that asks. */
  onRetryMedia: () => void;
  /** Goes on without the camera, in a voice call. */
  onVoiceCall: () => void;
};

/**
 * The stages where no call can start, each with its reason and, where the guest can do
 * something about it, a way forward: a refused camera says so (not that the browser cannot call)
 * and offers a voice call where the company lets the guest choose; a location the browser did not
 * share is not "outside our area"; an unknown company link says so. The heading takes focus so
 * screen readers announce it.
 */
export function NoticePage({
  kind,
  onRetryMedia = () => window.location.reload(),
  onVoiceCall,
}: { kind: NoticeKind } & Partial<NoticeActions>) {
  const t = useT();
  const company = useAppSelector((state) => state.company.details);
  const failurePage = useAppSelector((state) => state.browserCheck.failurePage);
  const voiceOnly = useAppSelector((state) => state.browserCheck.voiceOnly);
  const noLocation = useAppSelector((state) => state.geofence.reason === 'noLocation');
  const failure = useAppSelector((state) => state.flow.failure);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [kind]);

  const reload: Action = { label: t('tryAgain'), run: () => window.location.reload() };
  const mediaRefused = kind === 'unsupported' && failurePage === 'disabledCamera';
  const microphoneOnly = voiceOnly || company?.callType === 'voice';
  const retryMedia: Action = { label: t('tryAgain'), run: onRetryMedia };

  const unsupported = (): { title: string; body: string[]; actions: Action[] } => {
    if (!mediaRefused) {
      const reason = failurePage ?? 'noWebRTC';
      return {
        title: t(reason === 'offline' ? 'unsupportedTitle_offline' : 'unsupportedTitle'),
        body: [t(`unsupported_${reason}` as MessageKey)],
        actions: [reload],
      };
    }
    if (microphoneOnly) {
      return {
        title: t('unsupportedTitle_noMicrophone'),
        body: [t('unsupported_noMicrophone')],
        actions: [retryMedia],
      };
    }
    const voiceAllowed = company?.callType === 'userSelect' && onVoiceCall !== undefined;
    return {
      title: t('unsupportedTitle_disabledCamera'),
      body: [t('unsupported_disabledCamera'), ...(voiceAllowed ? [t('voiceInsteadHint')] : [])],
      actions: voiceAllowed
        ? [{ label: t('voiceInstead'), run: onVoiceCall }, retryMedia]
        : [retryMedia],
    };
  };

  const texts: Record<NoticeKind, () => { title: string; body: string[]; actions: Action[] }> = {
    inactive: () => ({ title: t('inactiveTitle'), body: [t('inactiveBody')], actions: [] }),
    outOfQuota: () => ({ title: t('outOfQuotaTitle'), body: [t('outOfQuotaBody')], actions: [] }),
    blocked: () => ({ title: t('blockedTitle'), body: [t('blockedBody')], actions: [] }),
    bot: () => ({ title: t('botTitle'), body: [t('botBody')], actions: [] }),
    unsupported,
    outofzone: () =>
      noLocation
        ? { title: t('locationTitle'), body: [t('locationBody')], actions: [reload] }
        : {
            title: t('outOfZoneTitle'),
            body: [
              company?.outOfZoneMsg ?? t('outOfZoneDefault'),
              ...(company?.locationOfService
                ? [t('serviceArea', { area: company.locationOfService })]
                : []),
            ],
            actions: [],
          },
    abandoned: () => ({
      title: t('abandonedTitle'),
      body: [t('abandonedBody')],
      actions: [reload],
    }),
    elsewhere: () => ({
      title: t('elsewhereTitle'),
      body: [t('elsewhereBody')],
      actions: [],
    }),
    failed: () =>
      failure === 'notFound'
        ? { title: t('failedTitle_notFound'), body: [t('failed_notFound')], actions: [] }
        : {
            title: t('failedTitle'),
            body: [t(`failed_${failure ?? 'unavailable'}`)],
            actions: [reload],
          },
  };
  const { title, body, actions } = texts[kind]();

  return (
    <section className="notice" data-testid={`stage-${kind}`} aria-labelledby="notice-title">
      <h1 id="notice-title" ref={heading} tabIndex={-1}>
        {title}
      </h1>
      {body.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
      {actions.length > 0 && (
        <div className="stage-actions">
          {actions.map((action, index) => (
            <button
              key={action.label}
              type="button"
              className={index === 0 ? 'button-primary' : 'button-secondary'}
              onClick={action.run}
            >
              {action.label}
            </button>
          ))}
        </div>
      )}
    </section>
  );
}
