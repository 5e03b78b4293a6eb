import { z } from 'zod';
import { guestStageSchema } from './stages.ts';

/**
 * What the guest widget tells the page that embeds it (apps/guest/src/embed/loader.ts), by
 * `postMessage` to that page's origin only: each stage it reaches, and Escape pressed inside it
 * (close the panel). The loader carries no zod (it loads on every page of a company's site), so
 * it checks these two shapes by hand against this type; the widget sends nothing else.
 */
export const embedMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('frontdesk:stage'), stage: guestStageSchema }),
  z.object({ type: z.literal('frontdesk:close') }),
]);
export type EmbedMessage = z.infer<typeof embedMessageSchema>;
