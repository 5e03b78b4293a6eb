import type { AppStartListening } from './hooks.ts';
import { companyLoaded } from '../features/company/companySlice.ts';
import { stageReached } from '../features/flow/flowSlice.ts';
import { submitWelcomeForm } from '../features/forms/submitWelcomeForm.ts';

/*
 * Two stage pages that are not the first screen of most visits load with their stage, not with
 * the page (decision 0012, "What loads when"): the schedule of a closed company, and the choice
 * of category that comes after the welcome form and the camera check. Each is fetched ahead as
 * soon as the visit knows it is next, so the guest does not wait for it.
 */
export const loadSchedulePage = () => import('../features/schedule/SchedulePage.tsx');
export const loadSelectionPage = () => import('../features/selection/SelectionPage.tsx');

/** A page fetched ahead; one that fails loads again when its stage shows it. */
function prefetch(load: () => Promise<unknown>): void {
  load().catch(() => undefined);
}

export function stagePageListeners(startListening: AppStartListening): void {
  // As soon as the company is known: closed now (the visit ends on its schedule), or with neither
  // welcome form nor camera check (the selection is the first screen).
  startListening({
    actionCreator: companyLoaded,
    effect: ({ payload: company }) => {
      if (company.schedule && !company.schedule.openNow) prefetch(loadSchedulePage);
      else if (!company.welcomeForm && !company.previewScreen) prefetch(loadSelectionPage);
    },
  });
  // The guest sends the welcome form, or reaches the camera check: the selection comes next.
  startListening({
    actionCreator: submitWelcomeForm.pending,
    effect: () => prefetch(loadSelectionPage),
  });
  startListening({
    actionCreator: stageReached,
    effect: ({ payload: stage }) => {
      if (stage === 'preview') prefetch(loadSelectionPage);
    },
  });
}
