import { CHAT_ERROR_MESSAGES, type ChatErrorCode } from '@frontdesk/protocol';

/** A chat failure with a code the apps can branch on and the words the user sees. */
export class ChatError extends Error {
  /** What to show the guest or agent (spec §8 gives no wording: ours). */
  readonly userMessage: string;

  constructor(
    readonly code: ChatErrorCode,
    /** What StanzaJS or the server said, for logs. */
    detail?: string,
  ) {
    super(detail ? `${code}: ${detail}` : code);
    this.name = 'ChatError';
    this.userMessage = CHAT_ERROR_MESSAGES[code];
  }
}

/**
 * The texts StanzaJS puts in its errors (spec §8 lists them, typo included), to our codes.
 * They arrive inside longer texts such as "Failed to negotiate stream features: <text>".
 */
const STANZA_ERROR_TEXTS: ReadonlyArray<readonly [string, ChatErrorCode]> = [
  ['JID binding failed', 'bind-failed'],
  ['Session requeset failed', 'session-failed'],
  // Before 'authentication failed', which it contains.
  ['Mutual authentication failed', 'mutual-auth-failed'],
  ['authentication failed', 'auth-failed'],
  ['Room nick required', 'nick-required'],
  ['No upload service discovered', 'no-upload-service'],
];

/** The code of a StanzaJS error text; `undefined` when it is none of spec §8's. */
export function chatErrorCodeOf(text: string | undefined): ChatErrorCode | undefined {
  if (!text) return undefined;
  return STANZA_ERROR_TEXTS.find(([known]) => text.includes(known))?.[1];
}
