import { t } from '../../i18n/messages.ts';

/**
 * How the console names a guest: its jabber username (`g<company>-<username>-<digest>`) is long
 * and holds the guest's credential (apps/api README), so only a short piece of its digest shows.
 */
export function guestLabel(nick: string): string {
  const digest = nick.slice(nick.lastIndexOf('-') + 1);
  return t('guestLabel', { id: digest.slice(0, 6).toUpperCase() });
}
