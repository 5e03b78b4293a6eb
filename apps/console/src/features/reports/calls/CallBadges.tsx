import type { CallOutcome, ReportCall } from '@frontdesk/protocol';
import { t } from '../../../i18n/messages.ts';

/** What happened to a call, in words, coloured by kind (the colour only repeats the words). */
export function OutcomeBadge(props: { outcome: CallOutcome }) {
  return (
    <span className="outcome" data-outcome={props.outcome}>
      {t(`callOutcome_${props.outcome}`)}
    </span>
  );
}

/**
 * Whether the call's media went through a relay and whether it was flagged poor; `empty` where
 * neither side reported (the list's dash, nothing on the call's page).
 */
export function QualityFlags(props: {
  call: Pick<ReportCall, 'relayed' | 'poorQuality'>;
  empty?: string;
}) {
  const { relayed, poorQuality } = props.call;
  if (relayed === null && !poorQuality) return props.empty ?? null;
  return (
    <span className="quality-flags">
      {poorQuality && <span className="flag bad">{t('reportPoor')}</span>}
      {relayed === true && <span className="flag">{t('reportRelayedFlag')}</span>}
      {relayed === false && !poorQuality && <span className="flag good">{t('reportDirect')}</span>}
    </span>
  );
}
