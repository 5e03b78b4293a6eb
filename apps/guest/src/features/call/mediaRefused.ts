import type { AppDispatch } from '../../app/store.ts';
import { mediaAccessChecked } from '../browserCheck/browserCheckSlice.ts';
import { stageReached } from '../flow/flowSlice.ts';

/**
 * spec §5: the browser refused the camera or microphone (a refusal or a missing device is
 * `disabledCamera`), on the preview screen or, for a company without one, as the call set itself
 * up. Either way the guest reaches stage `unsupported`, which says the camera was refused (not
 * that the browser cannot call) and offers a voice call where the company lets the guest choose
 * (decision 0023).
 */
export function mediaRefused(dispatch: AppDispatch): void {
  dispatch(mediaAccessChecked(false));
  dispatch(stageReached('unsupported'));
}

/** Whether a media failure is the browser refusing the camera or microphone (`disabledCamera`). */
export const isMediaRefusal = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  (error as { code?: unknown }).code === 'disabledCamera';
