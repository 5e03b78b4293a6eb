import { KEPT_CHAT_MAX, keptChatSchema } from '@frontdesk/protocol';
import type { ChatMessageRecord } from './types.ts';

/*
 * A call's chat as one tab keeps it in its own session storage, so that a reload shows it again:
 * the chat server keeps no copy (decision 0025 for the guest's tab, 0027 for the agent's). This
 * origin, this tab only; it proves nothing — it is the tab's own record of what it showed.
 */

/** Keeps `messages` (newest first, the newest {@link KEPT_CHAT_MAX}) under `key`. */
export function storeChat(
  storage: Storage | undefined,
  key: string,
  messages: readonly ChatMessageRecord[],
): void {
  try {
    storage?.setItem(key, JSON.stringify(messages.slice(0, KEPT_CHAT_MAX)));
  } catch {
    // A full or missing storage: a reload shows the chat from then on only.
  }
}

/**
 * The chat kept under `key`: only messages between `self` (this tab's own chat user) and `peer`
 * (anyone, when not given); none when the kept text is not a chat. A message still on its way
 * when the page went has no one left to say it arrived: it shows as failed.
 */
export function storedChat(
  storage: Storage | undefined,
  key: string,
  self: string,
  peer?: string,
): ChatMessageRecord[] {
  try {
    const text = storage?.getItem(key);
    const kept = text ? keptChatSchema.safeParse(JSON.parse(text)).data : undefined;
    /** `mine` is this tab's user, `theirs` the other party: the one asked for, if any. */
    const between = (mine: string, theirs: string) =>
      mine === self && theirs !== self && (peer === undefined || theirs === peer);
    // The schema checked each record as this package writes it (its delivery states too).
    const chat = (kept ?? []).filter(({ direction, payload }) =>
      direction === 'in' ? between(payload.to, payload.from) : between(payload.from, payload.to),
    ) as ChatMessageRecord[];
    return chat.map((record) =>
      record.delivery === 'sending' ? { ...record, delivery: 'failed' } : record,
    );
  } catch {
    return [];
  }
}

/** Forgets the chat kept under `key`. */
export function forgetChat(storage: Storage | undefined, key: string): void {
  try {
    storage?.removeItem(key);
  } catch {
    // Nothing kept.
  }
}
