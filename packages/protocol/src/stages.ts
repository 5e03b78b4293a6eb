import { z } from 'zod';

/**
 * The guest flow's screens: spec §2's thirteen stages plus three of ours — `loading` (before the
 * company's branding is known), `welcome` (the optional welcome form, docs/architecture.md,
 * step 2), `failed` (the service itself is unreachable; spec §8 leaves user-facing wording
 * open) and `elsewhere` (a duplicated tab: the call is open in the tab it was copied from).
 */
export const guestStageSchema = z.enum([
  'loading',
  /** The company asks for the guest's consent before anything else (decision 0030). */
  'consent',
  /** The guest declined: nothing was stored; how else to reach the company. */
  'consentDeclined',
  'welcome',
  'preview',
  'selection',
  'schedule',
  'outofzone',
  'waiting',
  'ongoing',
  'rating',
  'abandoned',
  'unsupported',
  'inactive',
  'outOfQuota',
  'blocked',
  'bot',
  'failed',
  /** The call this tab would take up is open in another tab of this browser (decision 0025). */
  'elsewhere',
]);
export type GuestStage = z.infer<typeof guestStageSchema>;
