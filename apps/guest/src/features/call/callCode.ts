/**
 * The call's orchestration — joining the queue, the live call in its chat and media rooms,
 * transfers, hanging up (callFlow.ts and openCall.ts) — is no part of the page a visitor opens:
 * it loads when a call starts or resumes, and is fetched ahead once the guest reaches the stage
 * just before a call (decision 0012).
 */
export const loadCallFlow = () => import('./callFlow.ts');

/**
 * The call's screens, which the page shows lazily by its stage (app/StageView.tsx): waiting in
 * the queue, then the call itself, whose first remote picture would otherwise wait for its code.
 */
const loadCallScreens = () => Promise.all([import('./WaitingPage.tsx'), import('./CallPage.tsx')]);

/**
 * Fetches the call's code and screens ahead of the guest's click. A failure here is no failure
 * yet: the call asks for the code again when it starts, and says so if it cannot have it.
 */
export function prefetchCallFlow(): void {
  loadCallFlow().catch(() => undefined);
  loadCallScreens().catch(() => undefined);
}
