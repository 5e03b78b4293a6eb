import { afterEach, describe, expect, it } from 'vitest';
import { isTyping, shortcutOf, type ShortcutKey } from './shortcuts.ts';

afterEach(() => document.body.replaceChildren());

const press = (key: string, extra: Partial<ShortcutKey> = {}): ShortcutKey => ({
  key,
  ctrlKey: false,
  altKey: false,
  metaKey: false,
  shiftKey: false,
  target: document.body,
  ...extra,
});

function element(html: string, selector: string): Element {
  document.body.innerHTML = html;
  const found = document.querySelector(selector);
  if (!found) throw new Error(selector);
  return found;
}

describe('call shortcuts', () => {
  it('maps the letters to the controls, whatever Caps Lock says', () => {
    expect(shortcutOf(press('m'))).toBe('mute');
    expect(shortcutOf(press('M'))).toBe('mute');
    expect(shortcutOf(press('v'))).toBe('camera');
    expect(shortcutOf(press('h'))).toBe('hold');
    expect(shortcutOf(press('t'))).toBe('transfer');
    expect(shortcutOf(press('?', { shiftKey: true }))).toBe('help');
  });

  it('ends only with Shift+E: a stray E ends nothing', () => {
    expect(shortcutOf(press('E', { shiftKey: true }))).toBe('end');
    expect(shortcutOf(press('e'))).toBeNull();
    expect(shortcutOf(press('E'))).toBeNull(); // Caps Lock, no Shift
    expect(shortcutOf(press('M', { shiftKey: true }))).toBeNull();
  });

  it('leaves keys with Ctrl, Alt or ⌘ and held-down repeats to the browser', () => {
    expect(shortcutOf(press('m', { ctrlKey: true }))).toBeNull();
    expect(shortcutOf(press('m', { altKey: true }))).toBeNull();
    expect(shortcutOf(press('m', { metaKey: true }))).toBeNull();
    expect(shortcutOf(press('m', { repeat: true }))).toBeNull();
    expect(shortcutOf(press('x'))).toBeNull();
    expect(shortcutOf(press('Escape'))).toBeNull();
  });

  it('takes no key while the agent types, chooses or is in a dialog or menu', () => {
    for (const [html, selector] of [
      ['<textarea></textarea>', 'textarea'],
      ['<input type="text">', 'input'],
      ['<select><option>a</option></select>', 'select'],
      ['<div contenteditable="true"><b>x</b></div>', 'b'],
      ['<div role="dialog"><button>ok</button></div>', 'button'],
      ['<div role="menu"><div role="menuitem">a</div></div>', '[role=menuitem]'],
    ] as const) {
      const target = element(html, selector);
      expect(isTyping(target), html).toBe(true);
      expect(shortcutOf(press('m', { target })), html).toBeNull();
    }
    const button = element('<div role="group"><button>Hold</button></div>', 'button');
    expect(shortcutOf(press('h', { target: button }))).toBe('hold');
  });
});
