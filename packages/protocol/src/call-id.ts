import { z } from 'zod';
import { guestUsernameSchema } from './guest.ts';

/** spec §3: a call id is the guest username, then `--`, then a suffix. */
export const CALL_ID_SEPARATOR = '--';

const SUFFIX = /^[A-Za-z0-9]{1,64}$/;

export const callIdSchema = z
  .string()
  .max(200)
  .refine((value) => parseCallId(value) !== undefined, 'must be "<guest username>--<suffix>"');

/** Builds a call id for `username` (spec §3). */
export function formatCallId(username: string, suffix: string): string {
  return callIdSchema.parse(`${username}${CALL_ID_SEPARATOR}${suffix}`);
}

/** Splits a call id into its guest username and suffix; `undefined` when it is not one. */
export function parseCallId(callId: string): { username: string; suffix: string } | undefined {
  const at = callId.indexOf(CALL_ID_SEPARATOR);
  if (at < 0) return undefined;
  const username = callId.slice(0, at);
  const suffix = callId.slice(at + CALL_ID_SEPARATOR.length);
  if (!guestUsernameSchema.safeParse(username).success || !SUFFIX.test(suffix)) return undefined;
  return { username, suffix };
}

/**
 * The XMPP room of a call (decision 0010): the API makes it for the call's guest and the agents
 * who may take it. Named after the call id, lowercased as XMPP would.
 */
export function callRoomJid(callId: string, xmppDomain: string): string {
  return `${callId.toLowerCase()}@conference.${xmppDomain}`;
}
