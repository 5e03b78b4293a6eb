import type { ClaimedCall } from '@frontdesk/protocol';
import { t } from '../../i18n/messages.ts';
import { guestLabel } from '../chat/guestLabel.ts';
import { useGuestName } from '../guestContext/useGuestContext.ts';

/** The call's guest by its name once the API answered it, its label before; '' with no call. */
export function useCallGuestName(call: ClaimedCall | null): string {
  return useGuestName(call?.callId ?? null, call ? guestLabel(call.guestJabberUsername) : '');
}

/** "Call with Grace Hopper": the guest's name once the API answered it, its label before. */
export function CallTitle({ call }: { call: ClaimedCall }) {
  return <>{t('inCallTitle', { guest: useCallGuestName(call) })}</>;
}
