import { describe, expect, it } from 'vitest';
import { answer, fakeApi } from '@frontdesk/protocol/testing';
import { createStore } from '../../app/store.ts';
import { company, guestOnSelection, offlineServices } from '../../test/render.tsx';
import { agentAccepted, pageVisibilityChanged } from './callSlice.ts';
import type { GuestNotifier } from './notifications.ts';
import { startCall } from './startCall.ts';

const GUEST = `g${'n'.repeat(25)}`;

/** The browser's notifications as a guest who answers the prompt with `answer` sees them. */
class FakeNotifier implements GuestNotifier {
  asked = 0;
  readonly shown: { title: string; body: string }[] = [];
  constructor(private permission: 'default' | 'granted' | 'denied') {}
  allowed = () => this.permission === 'granted';
  ask = () => {
    this.asked += 1;
    if (this.permission === 'default') this.permission = this.answer;
    return Promise.resolve(this.allowed());
  };
  show = (title: string, body: string) => void this.shown.push({ title, body });
  answer: 'granted' | 'denied' = 'granted';
}

/** A signed-in guest of the demo company on the selection stage, with `notifier`. */
function guest(notifier: GuestNotifier, language?: string) {
  const { api } = fakeApi({
    'POST /call-report/add': answer({ status: 'blocked', id: 3, callMethod: 'mediaServer' }),
  });
  return createStore(
    {
      companyId: 5,
      serviceType: 'Talk',
      webview: false,
      parentOrigin: null,
      ...(language ? { language } : {}),
    },
    offlineServices({ api, notifier }),
    guestOnSelection(GUEST),
  );
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('notifications (spec §3 notificationAllowed, §4 Away)', () => {
  it('asks as the guest starts the call, within the click, and keeps the answer', async () => {
    for (const answer of ['granted', 'denied'] as const) {
      const notifier = new FakeNotifier('default');
      notifier.answer = answer;
      const store = guest(notifier);
      const starting = store.dispatch(startCall({ categoryId: 1, callType: 'video' }));
      // Before anything is awaited: a browser shows its prompt only during a person's gesture.
      expect(notifier.asked).toBe(1);
      await starting;
      await settled();
      expect(store.getState().call.notificationAllowed).toBe(answer === 'granted');
    }
  });

  it('tells a guest whose page is hidden that an agent answered, in its language', async () => {
    for (const language of ['en', 'ar']) {
      const notifier = new FakeNotifier('granted');
      const store = guest(notifier, language);
      await store.dispatch(startCall({ categoryId: 1, callType: 'video' }));
      await settled();
      store.dispatch(pageVisibilityChanged(false));
      store.dispatch(agentAccepted('staff-1'));
      expect(notifier.shown).toEqual([
        language === 'ar'
          ? {
              title: `${company().name}: تم الرد على مكالمتك`,
              body: 'أحد موظفينا معك الآن. عُد إلى المكالمة.',
            }
          : {
              title: `${company().name}: your call was answered`,
              body: 'An agent is with you now. Come back to the call.',
            },
      ]);
    }
  });

  it('stays quiet while the page is in sight, and when notifications are not allowed', async () => {
    const visible = new FakeNotifier('granted');
    const inSight = guest(visible);
    await inSight.dispatch(startCall({ categoryId: 1, callType: 'video' }));
    inSight.dispatch(agentAccepted('staff-1'));
    expect(visible.shown).toEqual([]);

    const refused = new FakeNotifier('denied');
    const hidden = guest(refused);
    await hidden.dispatch(startCall({ categoryId: 1, callType: 'video' }));
    await settled();
    hidden.dispatch(pageVisibilityChanged(false));
    hidden.dispatch(agentAccepted('staff-1'));
    expect(refused.shown).toEqual([]);
    expect(hidden.getState().call.notificationAllowed).toBe(false);
  });
});
