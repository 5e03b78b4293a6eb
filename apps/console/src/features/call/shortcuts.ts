/**
 * The call's keyboard shortcuts (issue 19 item 3): single keys, as in the meeting tools agents
 * know, taken only outside anything the agent types into and never with Ctrl, Alt or ⌘ (those
 * keep the browser's and the screen reader's own). Ending needs Shift, so a stray E does not end
 * a call.
 */
export type CallShortcut = 'mute' | 'camera' | 'hold' | 'transfer' | 'end' | 'help';

/** What each shortcut is called on its key cap (the help overlay, tooltips, aria-keyshortcuts). */
export const SHORTCUT_KEYS: Record<CallShortcut, { label: string; aria: string }> = {
  mute: { label: 'M', aria: 'M' },
  camera: { label: 'V', aria: 'V' },
  hold: { label: 'H', aria: 'H' },
  transfer: { label: 'T', aria: 'T' },
  end: { label: 'Shift+E', aria: 'Shift+E' },
  help: { label: '?', aria: 'Shift+?' },
};

const LETTERS: Record<string, CallShortcut> = { m: 'mute', v: 'camera', h: 'hold', t: 'transfer' };

export interface ShortcutKey {
  key: string;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  repeat?: boolean;
  target: EventTarget | null;
}

/** Whether the agent is typing or choosing in `target` (then a letter is theirs, not ours). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target.closest('input, textarea, select, [contenteditable]:not([contenteditable="false"])'))
    return true;
  // A dialog or menu open over the call has the keyboard to itself.
  return target.closest('[role="dialog"], [role="alertdialog"], [role="menu"]') !== null;
}

/** The shortcut `event` asks for, or `null` when the key is not ours to take. */
export function shortcutOf(event: ShortcutKey): CallShortcut | null {
  if (event.ctrlKey || event.altKey || event.metaKey || event.repeat) return null;
  if (isTyping(event.target)) return null;
  if (event.key === '?') return 'help';
  const letter = event.key.toLowerCase();
  // Caps Lock changes the letter's case, not Shift: Shift alone tells ending from the others.
  if (event.shiftKey) return letter === 'e' ? 'end' : null;
  return LETTERS[letter] ?? null;
}
