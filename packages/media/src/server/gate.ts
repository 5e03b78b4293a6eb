// Server side only (the API's `/janus-ws`): what a browser's Janus message may be, and what goes on
// to Janus. SECURITY: this is the boundary between browsers and Janus (decision 0008).
import { randomBytes } from 'node:crypto';
import { janusBrowserMessageSchema, roomTokenRole } from '@frontdesk/protocol';

/** Janus's own code for a refused request (`JANUS_ERROR_UNAUTHORIZED`), which janus.js reports. */
const REFUSED = 403;

/** Either the text to send on to Janus, or the error to answer the browser with. */
export type GateVerdict = { readonly forward: string } | { readonly refuse: string };

function transactionOf(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { transaction } = message as { transaction?: unknown };
  return typeof transaction === 'string' ? transaction : undefined;
}

function refusal(message: unknown, reason: string): GateVerdict {
  const sessionId = (message as { session_id?: unknown } | null)?.session_id;
  return {
    refuse: JSON.stringify({
      janus: 'error',
      ...(typeof sessionId === 'number' ? { session_id: sessionId } : {}),
      transaction: transactionOf(message),
      error: { code: REFUSED, reason: `Refused by Frontdesk: ${reason}` },
    }),
  };
}

/**
 * Checks one message a browser sends Janus (janus.js over the WebSocket) against
 * `janusBrowserMessageSchema` and answers what to do with it. A refusal names the field, in the
 * shape janus.js reports as the request's error. A publisher `join` goes on with a publisher id
 * the gate makes (`<role>-<32 hex>`, the role from the participant's room token, which Janus's
 * ACL authenticates): Janus builds recording names from it, so no part of a name is a browser's.
 */
export function screenBrowserMessage(text: string): GateVerdict {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return refusal(undefined, 'not JSON');
  }
  const parsed = janusBrowserMessageSchema.safeParse(message);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'message';
    return refusal(message, `${where}: ${issue?.message ?? 'not allowed'}`);
  }
  const request = parsed.data;
  if (request.janus === 'message' && request.body.request === 'join') {
    const { body } = request;
    if (body.ptype === 'publisher') {
      const id = `${roomTokenRole(body.token)}-${randomBytes(16).toString('hex')}`;
      return { forward: JSON.stringify({ ...request, body: { ...body, id } }) };
    }
  }
  return { forward: JSON.stringify(request) };
}
