import { z } from 'zod';
import { CHAT_TEXT_MAX_LENGTH } from './chat.ts';
import { companyParamsSchema } from './company.ts';
import { envelope, noContentSchema } from './envelope.ts';
import { recordIdTextSchema } from './ids.ts';
import type { Route } from './routes.ts';

/** What an agent types after `/` to insert a reply: lower-case letters, digits and dashes. */
export const CANNED_REPLY_SHORTCUT = /^[a-z0-9][a-z0-9-]{0,29}$/;
/** How many canned replies a company keeps. */
export const CANNED_REPLIES_MAX = 200;

/**
 * A ready answer a company's admin keeps for its agents' chats (issue 19 item 4): a title to
 * find it by, the shortcut an agent types after `/`, the text inserted.
 */
export const cannedReplySchema = z.object({
  id: z.number().int().positive(),
  title: z.string(),
  shortcut: z.string(),
  text: z.string(),
  updatedAt: z.string(),
});
export type CannedReply = z.infer<typeof cannedReplySchema>;

const fields = {
  title: z.string().trim().min(1, 'must not be empty').max(80, 'must be at most 80 characters'),
  shortcut: z
    .string()
    .trim()
    .regex(CANNED_REPLY_SHORTCUT, 'must be 1 to 30 lower-case letters, digits or dashes'),
  text: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(CHAT_TEXT_MAX_LENGTH, `must be at most ${CHAT_TEXT_MAX_LENGTH} characters`),
};

/** `POST /company/:id/canned-replies`. */
export const cannedReplyBodySchema = z.strictObject(fields);
export type CannedReplyBody = z.infer<typeof cannedReplyBodySchema>;

/** `PATCH /company/:id/canned-replies/:replyId`: any of the fields, at least one. */
export const cannedReplyUpdateBodySchema = z
  .strictObject(fields)
  .partial()
  .refine((body) => Object.keys(body).length > 0, 'must change at least one field');
export type CannedReplyUpdateBody = z.infer<typeof cannedReplyUpdateBodySchema>;

export const cannedReplyParamsSchema = z.strictObject({
  id: recordIdTextSchema,
  replyId: recordIdTextSchema,
});

/**
 * The company's canned replies: every member of its staff reads them (agents insert them in
 * chats), only its admins change them. Writes take `If-Match` and answer the company's version
 * as their ETag, as the other company-admin routes. Part of `adminRoutes`.
 */
export const cannedReplyRoutes = {
  /** Ordered by shortcut. */
  cannedReplies: {
    method: 'GET',
    path: '/company/:id/canned-replies',
    params: companyParamsSchema,
    response: envelope(z.array(cannedReplySchema)),
  },
  /** 409 `shortcut_taken` when another reply has the shortcut, `too_many_replies` past the most. */
  createCannedReply: {
    method: 'POST',
    path: '/company/:id/canned-replies',
    params: companyParamsSchema,
    body: cannedReplyBodySchema,
    response: envelope(cannedReplySchema),
    statuses: [201],
  },
  updateCannedReply: {
    method: 'PATCH',
    path: '/company/:id/canned-replies/:replyId',
    params: cannedReplyParamsSchema,
    body: cannedReplyUpdateBodySchema,
    response: envelope(cannedReplySchema),
  },
  deleteCannedReply: {
    method: 'DELETE',
    path: '/company/:id/canned-replies/:replyId',
    params: cannedReplyParamsSchema,
    response: noContentSchema,
    statuses: [204],
  },
} as const satisfies Record<string, Route>;
