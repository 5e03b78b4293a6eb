import { describe, expect, it, vi } from 'vitest';
import { createStore } from '../../app/store.ts';
import {
  adaLogin,
  clockCompany,
  fakeApi,
  pending,
  signedIn,
  testServices,
  WORKSPACE_ANSWERS,
} from '../../test/render.tsx';
import { signedOut, workspaceLoaded } from '../auth/authSlice.ts';
import { AVAILABILITY_CHANNEL } from './availabilityListeners.ts';
import { availabilityChosen } from './availabilitySlice.ts';

/**
 * A tab of Ada's console whose workspace has loaded: it reports its availability to the API and
 * shares it with the agent's other tabs (the tabs of one process share BroadcastChannel, as the
 * tabs of one browser do).
 */
function tab(login = adaLogin) {
  const { api } = fakeApi(WORKSPACE_ANSWERS);
  const services = testServices({ api, loadChat: pending, loadMedia: pending });
  const state = signedIn(login);
  const store = createStore(services, state);
  const config = state.auth.config;
  if (!config) throw new Error('signedIn() has a config');
  store.dispatch(workspaceLoaded({ company: clockCompany, config }));
  return store;
}

const chosen = (store: ReturnType<typeof tab>) => store.getState().availability.chosen;

describe('the availability every tab of the agent shows (issue 19 item 5)', () => {
  it('a change in one tab shows in the others; a tab opened later starts from it', async () => {
    const first = tab();
    const second = tab();
    first.dispatch(availabilityChosen('away'));
    await vi.waitFor(() => expect(chosen(second)).toBe('away'));
    second.dispatch(availabilityChosen('busy'));
    await vi.waitFor(() => expect(chosen(first)).toBe('busy'));
    const third = tab();
    await vi.waitFor(() => expect(chosen(third)).toBe('busy'));
    for (const store of [first, second, third]) store.dispatch(signedOut());
  });

  it('believes only its own member’s tabs, and only messages of the expected shape', async () => {
    const mine = tab();
    const colleague = tab({ ...adaLogin, user: { ...adaLogin.user, id: 2 } });
    colleague.dispatch(availabilityChosen('away'));
    const page = new BroadcastChannel(AVAILABILITY_CHANNEL);
    page.postMessage({ kind: 'chosen', staffId: adaLogin.user.id, availability: 'asleep' });
    page.postMessage({ kind: 'chosen', staffId: String(adaLogin.user.id), availability: 'away' });
    // A well-formed message afterwards is believed, so the ones before were seen and refused.
    page.postMessage({ kind: 'chosen', staffId: adaLogin.user.id, availability: 'busy' });
    await vi.waitFor(() => expect(chosen(mine)).toBe('busy'));
    expect(chosen(colleague)).toBe('away');
    page.close();
    for (const store of [mine, colleague]) store.dispatch(signedOut());
  });
});
