import { ApiRequestError, CHAT_ERROR_MESSAGES } from '@frontdesk/protocol';

/**
 * A failure in words an agent can act on: the API's own message, the chat's spec §8 wording,
 * or the error's message; never a stack.
 */
export function describeError(error: unknown): string {
  if (error instanceof ApiRequestError) return error.message;
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code in CHAT_ERROR_MESSAGES) {
      return CHAT_ERROR_MESSAGES[code as keyof typeof CHAT_ERROR_MESSAGES];
    }
    return error.message;
  }
  return String(error);
}
