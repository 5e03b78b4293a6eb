import { z } from 'zod';
import { recordingRoleSchema, type RecordingRole } from './media.ts';

/**
 * A participant's entry in its call room's `allowed` list (decision 0008): its role, a dot and
 * 256 bits. The role is part of the token so that the API's Janus gate can name the participant's
 * recordings; Janus's ACL authenticates it, as a token with another role is not in the list.
 */
export const roomTokenSchema = z
  .string()
  .regex(/^(guest|agent)\.[A-Za-z0-9_-]{43}$/, 'must be a room token from the API');
export type RoomToken = z.infer<typeof roomTokenSchema>;

/** The role a room token was made for. */
export function roomTokenRole(token: RoomToken): RecordingRole {
  return recordingRoleSchema.parse(token.slice(0, token.indexOf('.')));
}

const text = z.string().min(1).max(256);
const streamOfFeed = z.strictObject({ feed: text, mid: text.optional() });
const sendSetting = z.strictObject({
  mid: text,
  send: z.boolean().optional(),
  keyframe: z.boolean().optional(),
  substream: z.number().int().min(0).max(2).optional(),
  temporal: z.number().int().min(0).max(2).optional(),
});

const joinSchema = z.discriminatedUnion('ptype', [
  z.strictObject({
    request: z.literal('join'),
    ptype: z.literal('publisher'),
    room: text,
    pin: text,
    token: roomTokenSchema,
    display: text.optional(),
  }),
  z.strictObject({
    request: z.literal('join'),
    ptype: z.literal('subscriber'),
    room: text,
    pin: text,
    private_id: z.number().int().nonnegative(),
    streams: z.array(streamOfFeed).max(32),
    use_msid: z.boolean().optional(),
    autoupdate: z.boolean().optional(),
  }),
]);

/**
 * What a browser may ask of the videoroom through `/janus-ws`, and nothing more: the requests
 * the media layer (`@frontdesk/media` session) sends. SECURITY: strict objects, so `record`,
 * `filename`, `secret`, `id`, `admin_key`, `rec_dir` and every administrative request (create,
 * destroy, edit, allowed, kick, enable_recording, rtp_forward, listparticipants…) are refused
 * before Janus sees them. Janus 1.1.2 checks `lock_record` on `configure` but not on
 * `joinandconfigure`, so this list, not the room's settings alone, keeps recording names the
 * server's (decision 0008).
 */
export const videoroomBrowserRequestSchema = z.discriminatedUnion('request', [
  joinSchema,
  z.strictObject({
    request: z.literal('configure'),
    audio: z.boolean().optional(),
    video: z.boolean().optional(),
    streams: z.array(sendSetting).max(32).optional(),
    restart: z.boolean().optional(),
    bitrate: z.number().int().nonnegative().optional(),
    keyframe: z.boolean().optional(),
  }),
  z.strictObject({
    request: z.enum(['subscribe', 'unsubscribe', 'update']),
    streams: z.array(streamOfFeed).max(32),
  }),
  z.strictObject({ request: z.enum(['start', 'pause', 'leave', 'unpublish']) }),
]);
export type VideoroomBrowserRequest = z.infer<typeof videoroomBrowserRequestSchema>;

const transaction = z.string().min(1).max(64);

/**
 * The Janus API messages a browser may send (janus.js): sessions, handles of the videoroom
 * only, messages whose body passes {@link videoroomBrowserRequestSchema}, trickle, keepalive.
 * Other top-level fields (token, session_id, handle_id, jsep, opaque_id) are Janus's own and
 * checked by Janus.
 */
export const janusBrowserMessageSchema = z.discriminatedUnion('janus', [
  z.looseObject({
    janus: z.enum([
      'create',
      'claim',
      'info',
      'keepalive',
      'trickle',
      'hangup',
      'detach',
      'destroy',
    ]),
    transaction,
  }),
  z.looseObject({
    janus: z.literal('attach'),
    transaction,
    plugin: z.literal('janus.plugin.videoroom'),
  }),
  z.looseObject({
    janus: z.literal('message'),
    transaction,
    body: videoroomBrowserRequestSchema,
  }),
]);
export type JanusBrowserMessage = z.infer<typeof janusBrowserMessageSchema>;
