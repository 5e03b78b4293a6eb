import { useEffect, useRef, useState } from 'react';
import { signedOut } from '../features/auth/authSlice.ts';
import { RingSettings } from '../features/queue/RingSettings.tsx';
import { chooseLanguage } from '../i18n/language.ts';
import { LANGUAGE_NAMES, useLanguage, useStaffLanguage } from '../i18n/LanguagePicker.tsx';
import { LANGUAGES, t, type Language } from '../i18n/messages.ts';
import { Menu, type MenuChoice, type MenuItem } from '../ui/Menu.tsx';
import { useAppDispatch, useAppSelector } from './hooks.ts';

/** Up to two letters of a name, for the menu's button when there is no room for the name. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : words;
  return letters
    .map((word) => Array.from(word ?? '')[0] ?? '')
    .join('')
    .toUpperCase();
}

/** Whether the browser could still ask for desktop notifications (it asks only after a click). */
function notificationPermission(): NotificationPermission {
  return typeof Notification === 'undefined' ? 'denied' : Notification.permission;
}

/**
 * A new language draws the console again from the top (main.tsx), this menu with it: the menu's
 * new button takes the focus the old menu had, so a keyboard user is where they were.
 */
let languageJustChosen = false;

/**
 * The signed-in staff member's own settings in one menu at the end of the top bar (issue 19):
 * who is signed in, desktop notifications, the ring, the console's language, and signing out.
 * Availability stays in the bar itself, the one setting an agent changes all day.
 */
export function UserMenu() {
  const dispatch = useAppDispatch();
  const user = useAppSelector((state) => state.auth.login?.user);
  const language = useLanguage();
  const [permission, setPermission] = useState(notificationPermission);
  const [ringing, setRinging] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  useStaffLanguage(user?.id);
  useEffect(() => {
    if (!languageJustChosen) return;
    languageJustChosen = false;
    trigger.current?.focus();
  }, []);
  if (!user) return null;

  const languages: MenuChoice = {
    label: t('languageLabel'),
    value: language,
    options: LANGUAGES.map((each) => ({ value: each, label: LANGUAGE_NAMES[each], lang: each })),
    onChoose: (value) => {
      languageJustChosen = true;
      void chooseLanguage(value as Language, user.id);
    },
  };
  const items: (MenuItem | MenuChoice)[] = [
    ...(permission === 'default'
      ? [
          {
            label: t('enableNotifications'),
            onSelect: () => void Notification.requestPermission().then(setPermission),
            testId: 'enable-notifications',
          },
        ]
      : []),
    { label: t('ringSettings'), onSelect: () => setRinging(true), testId: 'open-ring-settings' },
    languages,
    { label: t('signOut'), onSelect: () => dispatch(signedOut()), testId: 'sign-out' },
  ];

  return (
    <>
      <Menu
        label={t('userMenu', { name: user.name })}
        heading={t('signedInAs', { name: user.name })}
        testId="user-menu"
        trigger={
          <button
            type="button"
            ref={trigger}
            className="user-menu-button"
            aria-label={t('userMenu', { name: user.name })}
            data-testid="user-menu-button"
          >
            <span className="user-initials" aria-hidden="true">
              {initialsOf(user.name)}
            </span>
            <span className="user-name">{user.name}</span>
            <span className="user-caret" aria-hidden="true">
              ▾
            </span>
          </button>
        }
        items={items}
      />
      {ringing && <RingSettings onClose={() => setRinging(false)} opener={trigger} />}
    </>
  );
}
