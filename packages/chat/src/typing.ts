import type { TypingState } from './types.ts';

/** How long a user may stop typing before the other side is told it paused (XEP-0085 §5.1). */
export const TYPING_PAUSE_MS = 5000;

/**
 * What one side's text box tells the other (XEP-0085), one notice per change: `changed` with
 * each edit of the text (`composing`, then `paused` after {@link TYPING_PAUSE_MS} without an edit,
 * `active` once cleared), `sent` when a message went (it carries `active` itself), `paused` when
 * the user leaves the box or the conversation. Plain: both apps wrap it in their hooks.
 */
export class TypingNotifier {
  readonly #tell: (state: TypingState) => void;
  readonly #pauseMs: number;
  #state: TypingState = 'active';
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(tell: (state: TypingState) => void, pauseMs = TYPING_PAUSE_MS) {
    this.#tell = tell;
    this.#pauseMs = pauseMs;
  }

  changed(text: string): void {
    clearTimeout(this.#timer);
    if (text.trim() === '') {
      this.#set('active');
      return;
    }
    this.#set('composing');
    this.#timer = setTimeout(() => this.#set('paused'), this.#pauseMs);
  }

  sent(): void {
    clearTimeout(this.#timer);
    this.#state = 'active';
  }

  paused(): void {
    clearTimeout(this.#timer);
    if (this.#state === 'composing') this.#set('paused');
  }

  #set(state: TypingState): void {
    if (this.#state === state) return;
    this.#state = state;
    this.#tell(state);
  }
}
