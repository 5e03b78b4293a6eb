import { z } from 'zod';
import { companyDetailsSchema } from './company.ts';
import { guestStageSchema } from './stages.ts';

/**
 * The stages a company admin can look at in the live preview (issue 16): every screen a guest
 * can see, without `loading` (nothing of the company's shows yet) and `elsewhere` (a duplicated
 * tab's notice that its call is open in the first tab: one sentence, nothing the company sets).
 */
export const previewStageSchema = guestStageSchema.exclude(['loading', 'elsewhere']);
export type PreviewStage = z.infer<typeof previewStageSchema>;

/**
 * A screen inside a stage that the stage alone does not name: `hold` is the call's hold page
 * (stage `ongoing`, while the agent holds the call), `thanks` the thanks after the rating (stage
 * `rating`). Without one, the preview shows the stage as a guest first sees it.
 */
export const previewScreenSchema = z.enum(['hold', 'thanks']);
export type PreviewScreen = z.infer<typeof previewScreenSchema>;

/** The stage each {@link PreviewScreen} belongs to. */
const SCREEN_STAGES: Record<PreviewScreen, PreviewStage> = { hold: 'ongoing', thanks: 'rating' };

/**
 * What the console's admin area tells the guest app's preview page (`/preview.html`, framed by
 * the console, same origin only): the unsaved company details to render, at which stage, and
 * optionally which screen of it. The preview answers `frontdesk:preview-ready` once it listens,
 * and again after each render.
 */
export const previewMessageSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('frontdesk:preview'),
      company: companyDetailsSchema,
      stage: previewStageSchema,
      screen: previewScreenSchema.optional(),
    })
    .refine((message) => !message.screen || SCREEN_STAGES[message.screen] === message.stage, {
      message: 'hold belongs to stage ongoing, thanks to stage rating',
      path: ['screen'],
    }),
  z.object({ type: z.literal('frontdesk:preview-ready') }),
]);
export type PreviewMessage = z.infer<typeof previewMessageSchema>;
/** The console's request to render a draft: the `frontdesk:preview` member of the union. */
export type PreviewRequest = Extract<PreviewMessage, { type: 'frontdesk:preview' }>;
