import { z } from 'zod';
import { answersSchema } from './forms.ts';
import { recordIdSchema } from './ids.ts';
import { guestStageSchema } from './stages.ts';

/**
 * What the guest widget tells the page that embeds it (apps/guest/src/embed/loader.ts), by
 * `postMessage` to that page's origin only (decision 0021): that it is ready for the host's
 * messages, each stage it reaches, how many agent messages arrived while the panel was closed,
 * and Escape pressed inside it (close the panel). The loader carries no zod (it loads on every
 * page of a company's site), so it checks these shapes by hand against this type; the widget
 * sends nothing else.
 */
export const embedMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('frontdesk:ready'),
    /** The direction of the language the widget shows (`?lang=` over the company's). */
    dir: z.enum(['ltr', 'rtl']).optional(),
  }),
  z.object({ type: z.literal('frontdesk:stage'), stage: guestStageSchema }),
  z.object({ type: z.literal('frontdesk:unread'), count: z.number().int().nonnegative() }),
  z.object({ type: z.literal('frontdesk:close') }),
  /** The widget forgot its visitor, as the host's `frontdesk:forget` asked. */
  z.object({ type: z.literal('frontdesk:forgotten') }),
]);
export type EmbedMessage = z.infer<typeof embedMessageSchema>;

/**
 * The host's prefill of the welcome form (`Frontdesk('identify', …)`): plain `answers` that the
 * guest sees filled in, and/or `token`, the same answers signed by the host's server with the
 * company's embed secret ({@link embedIdentityPayloadSchema}), which the API checks before it
 * marks them verified for the agent.
 */
export const embedIdentifySchema = z.strictObject({
  answers: answersSchema.optional(),
  token: z.string().max(20_000).optional(),
});
export type EmbedIdentify = z.infer<typeof embedIdentifySchema>;

/**
 * What the host page tells the widget, checked with zod inside the widget: only from the page
 * framing it, and only when that page's origin is the company's own or in its allowedOrigins.
 */
export const embedHostMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('frontdesk:identify'), identity: embedIdentifySchema }),
  /** The panel was opened or closed on the host page (the unread count runs while closed). */
  z.object({ type: z.literal('frontdesk:panel'), open: z.boolean() }),
  /**
   * `Frontdesk('shutdown')` (the site's visitor signed out): forget the guest this browser is for
   * the company — its kept registration and name, its call ticket and chat — so that the next
   * boot is a new visitor.
   */
  z.object({ type: z.literal('frontdesk:forget') }),
]);
export type EmbedHostMessage = z.infer<typeof embedHostMessageSchema>;

/**
 * The signed part of an identity token: `base64url(JSON of this) + "." + hex(HMAC-SHA256(secret,
 * that base64url text))`. `company` binds it to one company; `exp` (Unix seconds) bounds how
 * long a copied token can be replayed.
 */
export const embedIdentityPayloadSchema = z.strictObject({
  company: recordIdSchema,
  answers: answersSchema,
  exp: z.number().int().positive(),
});
export type EmbedIdentityPayload = z.infer<typeof embedIdentityPayloadSchema>;

/**
 * `GET /embed/:id` (public, answered to the host page's origin by CORS only when the company
 * lists it in allowedOrigins): what the loader needs to draw its launcher before any frame.
 */
export const embedConfigSchema = z.object({
  companyId: recordIdSchema,
  name: z.string(),
  /**
   * The company's button colours (`categoryBackgroundColor`/`categoryTextColor`, else its page's
   * `backgroundColor`/`textColor`); `null` where it keeps ours.
   */
  launcherColor: z.string().nullable(),
  launcherTextColor: z.string().nullable(),
  /** The widget's own direction, so the panel's close button sits where its header has room. */
  pageDirection: z.enum(['ltr', 'rtl']),
});
export type EmbedConfig = z.infer<typeof embedConfigSchema>;

/** `GET|POST /company/:id/embed-secret`: the key that signs identity tokens; `null`: none yet. */
export const embedSecretSchema = z.object({
  secret: z.string().nullable(),
  rotatedAt: z.iso.datetime().nullable(),
});
export type EmbedSecret = z.infer<typeof embedSecretSchema>;
