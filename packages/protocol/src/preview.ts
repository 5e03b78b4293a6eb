import { z } from 'zod';
import { companyDetailsSchema } from './company.ts';
import { guestStageSchema } from './stages.ts';

/**
 * The stages a company admin can look at in the live preview (issue 16): every screen a guest
 * can see, without `loading` (nothing of the company's shows yet).
 */
export const previewStageSchema = guestStageSchema.exclude(['loading']);
export type PreviewStage = z.infer<typeof previewStageSchema>;

/**
 * What the console's admin area tells the guest app's preview page (`/preview.html`, framed by
 * the console, same origin only): the unsaved company details to render, and at which stage.
 * The preview answers `frontdesk:preview-ready` once it listens, and again after each render.
 */
export const previewMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('frontdesk:preview'),
    company: companyDetailsSchema,
    stage: previewStageSchema,
  }),
  z.object({ type: z.literal('frontdesk:preview-ready') }),
]);
export type PreviewMessage = z.infer<typeof previewMessageSchema>;
