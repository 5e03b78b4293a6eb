import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { switchLanguage } from '../i18n/messages.ts';
import { fakeApi, renderWithState, signedIn } from '../test/render.tsx';
import { initialsOf, UserMenu } from './UserMenu.tsx';

afterEach(async () => {
  cleanup();
  localStorage.clear();
  await switchLanguage('en');
});

function renderMenu() {
  const { api, requests } = fakeApi({ 'POST /auth/logout': { body: undefined } });
  const rendered = renderWithState(<UserMenu />, signedIn(), { api });
  const button = screen.getByRole('button', { name: 'Account menu, Ada Agent' });
  return { ...rendered, button, requests };
}

/** Opens the menu from the keyboard, as a keyboard user does (Radix opens on key down). */
function openWith(button: HTMLElement, key: string) {
  button.focus();
  fireEvent.keyDown(button, { key });
  return screen.getByRole('menu');
}

describe('the user menu', () => {
  it.each(['Enter', ' ', 'ArrowDown'])(
    'opens with %j, says who is signed in, and Escape closes it and gives the focus back',
    async (key) => {
      const { button } = renderMenu();
      expect(button.getAttribute('aria-haspopup')).toBe('menu');
      const menu = openWith(button, key);
      expect(menu.getAttribute('aria-label')).toBe('Account menu, Ada Agent');
      expect(button.getAttribute('aria-expanded')).toBe('true');
      expect(within(menu).getByText('Signed in as Ada Agent')).toBeTruthy();
      const items = within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent);
      expect(items).toEqual(['Ring sound and volume…', 'Sign out']);
      const languages = within(menu).getAllByRole('menuitemradio');
      expect(
        languages.map((item) => [item.textContent, item.getAttribute('aria-checked')]),
      ).toEqual([
        ['English✓', 'true'],
        ['العربية', 'false'],
      ]);
      fireEvent.keyDown(document.activeElement ?? menu, { key: 'Escape' });
      expect(screen.queryByRole('menu')).toBeNull();
      await waitFor(() => expect(document.activeElement).toBe(button));
    },
  );

  it('switches the console to Arabic and keeps the choice for this member of staff', async () => {
    const { button } = renderMenu();
    const menu = openWith(button, 'Enter');
    fireEvent.click(within(menu).getByRole('menuitemradio', { name: 'العربية' }));
    await waitFor(() => expect(document.documentElement.dir).toBe('rtl'));
    expect(localStorage.getItem('frontdesk.console.language.1')).toBe('ar');
    expect(screen.queryByRole('menu')).toBeNull();
    const arabic = screen.getByRole('button', { name: 'قائمة الحساب، Ada Agent' });
    await waitFor(() => expect(document.activeElement).toBe(arabic));
    const reopened = openWith(arabic, 'Enter');
    expect(within(reopened).getByRole('menuitemradio', { name: 'العربية' }).ariaChecked).toBe(
      'true',
    );
  });

  it('opens the ring settings, whose closing gives the focus back to the menu button', async () => {
    const { button } = renderMenu();
    const menu = openWith(button, 'Enter');
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Ring sound and volume…' }));
    const dialog = screen.getByRole('dialog', { name: 'Ringing for new guests' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(button));
  });

  it('signs out: the console forgets the login and tells the API', async () => {
    const { button, store, requests } = renderMenu();
    const menu = openWith(button, 'Enter');
    act(() => fireEvent.click(within(menu).getByRole('menuitem', { name: 'Sign out' })));
    expect(store.getState().auth.status).toBe('signedOut');
    await waitFor(() => expect(requests.map((r) => r.route)).toEqual(['POST /auth/logout']));
  });
});

describe('initialsOf', () => {
  it('takes the first letters of the first and last names', () => {
    expect(initialsOf('Ada Agent')).toBe('AA');
    expect(initialsOf('  cy  ')).toBe('C');
    expect(initialsOf('Mary Ann de Vries')).toBe('MV');
    expect(initialsOf('رنا العلي')).toBe('را');
  });
});
