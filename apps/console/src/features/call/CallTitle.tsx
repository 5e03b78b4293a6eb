import type { ClaimedCall } from '@frontdesk/protocol';
import { t } from '../../i18n/messages.ts';
import { guestLabel } from '../chat/guestLabel.ts';
import { useGuestName } from '../guestContext/useGuestContext.ts';

/** "Call with Grace Hopper": the guest's name once the API answered it, its label before. */
export function CallTitle({ call }: { call: ClaimedCall }) {
  const name = useGuestName(call.callId, guestLabel(call.guestJabberUsername));
  return <>{t('inCallTitle', { guest: name })}</>;
}
