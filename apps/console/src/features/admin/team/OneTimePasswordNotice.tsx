import { useEffect, useId, useRef } from 'react';
import type { OneTimePassword } from '@frontdesk/protocol';
import { t } from '../../../i18n/messages.ts';
import { CopyButton } from '../../../ui/CopyButton.tsx';
import { formatDateTime } from '../listPage/formatTime.ts';

/** A one-time password just made, and for whom (an invitation or a reset). */
export type IssuedPassword = OneTimePassword & {
  kind: 'invite' | 'reset';
  name: string;
  email: string;
};

/**
 * The one-time password of an invitation or a reset, shown this once (the API never tells it
 * again): the password to copy, whom it is for, until when it works and where they sign in.
 * It takes the focus when it appears, and stays until the admin says it has been handed over.
 */
export function OneTimePasswordNotice(props: {
  issued: IssuedPassword;
  timeZone: string;
  onDone: () => void;
}) {
  const { issued } = props;
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [issued]);
  const signInUrl = `${window.location.origin}/console/`;
  return (
    <section className="one-time card" aria-labelledby={`${id}-title`} data-testid="one-time">
      <h3 id={`${id}-title`} tabIndex={-1} ref={heading}>
        {t(issued.kind === 'invite' ? 'otpInviteTitle' : 'otpResetTitle', { name: issued.name })}
      </h3>
      <p className="one-time-password">
        <code data-testid="one-time-password" dir="ltr">
          {issued.oneTimePassword}
        </code>
        <CopyButton text={issued.oneTimePassword} label={t('otpCopy')} />
      </p>
      <p>
        {t('otpHandOver', {
          name: issued.name,
          expires: `${formatDateTime(issued.expiresAt, props.timeZone)} (${props.timeZone})`,
          url: signInUrl,
          email: issued.email,
        })}
      </p>
      <p>
        <strong>{t('otpShownOnce')}</strong>
      </p>
      <div className="actions">
        <button type="button" onClick={props.onDone}>
          {t('otpDone')}
        </button>
      </div>
    </section>
  );
}
