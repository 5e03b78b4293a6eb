import { z } from 'zod';
import { callIdSchema } from './call-id.ts';
import { callTypeSchema } from './call-report.ts';
import { chatMessageSchema, jabberUsernameSchema } from './chat.ts';
import { callMethodSchema } from './company.ts';
import { serviceCredentialsSchema } from './guest.ts';
import { recordIdSchema } from './ids.ts';

/**
 * How long after the guest's page went away (its exit stamp, or its last sign of life) the same
 * conversation can still be resumed by a reload or a reopened tab (issue 18, decision 0025).
 */
export const CALL_RESUME_WINDOW_MS = 60_000;

/**
 * How long a peer may be missing from both the media server's room and the chat server's room,
 * while this side's own connections stay up, before it counts as gone: with the servers' own
 * delay in telling, a peer that left is known gone within 3 s (issue 18).
 */
export const PEER_GONE_MS = 2000;

/**
 * How long a peer missing from one signal only (its chat, say, while its media still flows), or
 * from everything while this side's own connections dropped too (a server restart), may stay
 * away before it counts as gone.
 */
export const PEER_GONE_GRACE_MS = 15_000;

/**
 * `POST /api/calls/:callId/resume` (the call's own guest): the same conversation after a
 * reload, a reopened tab or a network switch. SECURITY: only the guest that owns the call, while
 * it is live and within {@link CALL_RESUME_WINDOW_MS} of the guest's leaving; the chat and media
 * credentials come again, as with `call-report/add`.
 */
export const callResumeSchema = z.object({
  callId: callIdSchema,
  reportId: recordIdSchema,
  /** The first call id of the conversation (transfers chain new ids onto it). */
  originCallId: callIdSchema,
  status: z.enum(['waiting', 'answered']),
  categoryId: recordIdSchema.nullable(),
  callType: callTypeSchema.nullable(),
  /** How the call's media travels, as the API fixed it (decision 0045): the page sets it up again so. */
  callMethod: callMethodSchema,
  /** When the call began to wait (ISO 8601), for the estimate of the wait left. */
  createdAt: z.iso.datetime(),
  /** The agent who answered the call (its chat room nick); `null` while it waits. */
  agentJabberUsername: jabberUsernameSchema.nullable(),
  /** After a transfer to a named agent: the agent the guest waits for. */
  waitingFor: jabberUsernameSchema.nullable(),
  services: serviceCredentialsSchema,
});
export type CallResume = z.infer<typeof callResumeSchema>;

/**
 * What a guest's tab keeps in its own session storage to find its live call again after a
 * reload (decision 0025): which call, and when the tab last said it was live. It proves nothing.
 */
export const callTicketSchema = z.object({
  callId: callIdSchema,
  categoryId: recordIdSchema,
  callType: callTypeSchema,
  savedAt: z.number(),
});
export type CallTicket = z.infer<typeof callTicketSchema>;

/** How many of the call's chat messages a guest's tab keeps for a reload (the newest). */
export const KEPT_CHAT_MAX = 200;

/**
 * The call's chat as the guest's tab keeps it beside its {@link callTicketSchema ticket}, for the
 * ticket's lifetime only (decision 0025): the chat is one-to-one between the guest and its agent,
 * and the chat server keeps no copy, so a reload would lose it. Newest first; each message as
 * the chat session recorded it (its stanza id is the key that keeps a message from showing
 * twice). It proves nothing: it is the tab's own record of what it showed.
 */
export const keptChatSchema = z
  .array(
    z.looseObject({
      id: z.string().min(1).max(200),
      direction: z.enum(['in', 'out']),
      at: z.iso.datetime(),
      // The chat package's delivery states (its DeliveryState), `read` included.
      delivery: z.enum(['sending', 'sent', 'delivered', 'read', 'failed']),
      payload: chatMessageSchema,
    }),
  )
  .max(KEPT_CHAT_MAX);
export type KeptChat = z.infer<typeof keptChatSchema>;

/**
 * What this side knows of the peer from each server: `true` present, `false` absent, `null`
 * unknown (this side's own connection to that server is down, or the room not joined yet).
 */
export type PeerSignals = { chat: boolean | null; media: boolean | null };

/**
 * Whether the peer is away (the UI says it reconnects) and after how long away it counts as gone
 * (decision 0025): {@link PEER_GONE_MS} when both servers saw it leave, {@link
 * PEER_GONE_GRACE_MS} when only the chat server did (its media unknown: this side's own media is
 * reconnecting too, as in a server restart, or it still flows); never for media alone, which
 * recovers by itself (an ICE restart after a network switch).
 */
export function peerAbsence(signals: PeerSignals): { away: boolean; goneAfterMs: number | null } {
  const away = signals.chat === false || signals.media === false;
  if (signals.chat !== false) return { away, goneAfterMs: null };
  return { away, goneAfterMs: signals.media === false ? PEER_GONE_MS : PEER_GONE_GRACE_MS };
}

/**
 * The agent's absence as its guest counts it (decision 0027): as {@link peerAbsence}, but an agent
 * missing from both servers — its console reloading, its tab closed, its browser gone — counts as
 * gone only after {@link PEER_GONE_GRACE_MS}. Its page going away says nothing of whether it comes
 * back (a reload and a closed tab look the same, to the page and to the servers), and a reloaded
 * console takes the call up again well within it (`POST /calls/:callId/rejoin`).
 */
export function agentAbsence(signals: PeerSignals): { away: boolean; goneAfterMs: number | null } {
  const absence = peerAbsence(signals);
  return absence.goneAfterMs === null ? absence : { ...absence, goneAfterMs: PEER_GONE_GRACE_MS };
}
