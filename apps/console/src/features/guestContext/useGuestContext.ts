import { useCallback, useEffect, useState } from 'react';
import { guestContextRoutes, type GuestContext } from '@frontdesk/protocol';
import type { ConsoleServices } from '../../app/services.ts';
import { describeError } from '../../app/errors.ts';
import { useAppStore } from '../../app/hooks.ts';
import { useServices } from '../../app/servicesContext.ts';

export type GuestContextView =
  | { status: 'loading' }
  | { status: 'ready'; context: GuestContext }
  | { status: 'failed'; message: string };

/** The answers asked for, by call: the call screen and the guest's panel share one request. */
const asked = new Map<string, Promise<GuestContext>>();
/** Told whenever a call's details are asked for (again): the passive readers follow. */
const askers = new Set<(callId: string) => void>();
/** Only the last few calls are kept: an agent's console runs all day. */
const KEPT = 4;

function ask(api: ConsoleServices['api'], callId: string, token: string | undefined) {
  let answer = asked.get(callId);
  if (!answer) {
    answer = Promise.resolve()
      .then(() => api(guestContextRoutes.guestContext, { params: { callId }, token }))
      .then(({ data }) => data);
    asked.set(callId, answer);
    for (const told of askers) told(callId);
    // A failure is not kept: the next ask tries again.
    answer.catch(() => asked.delete(callId));
    for (const old of [...asked.keys()].slice(0, Math.max(0, asked.size - KEPT))) {
      asked.delete(old);
    }
  }
  return answer;
}

/**
 * The guest of the call `callId` as the API knows it (`GET /calls/:callId/guest-context`), asked
 * once per call and kept while the call and its wrap-up last; `retry` asks again after a failure.
 * `passive`: never asks, only follows what the guest's panel asked (the call screen's name).
 * With no call (`null`) it stays loading.
 */
export function useGuestContext(
  callId: string | null,
  { passive = false }: { passive?: boolean } = {},
): GuestContextView & { retry: () => void } {
  const { api } = useServices();
  const store = useAppStore();
  const [attempt, setAttempt] = useState(0);
  const key = `${callId} ${attempt}`;
  // What the last answer was, and to which ask: a newer call or retry is loading until answered.
  const [answer, setAnswer] = useState<{ key: string; view: GuestContextView } | null>(null);
  useEffect(() => {
    if (callId === null) return undefined;
    let live = true;
    const follow = (asking: Promise<GuestContext>) =>
      asking
        .then((context) => live && setAnswer({ key, view: { status: 'ready', context } }))
        .catch(
          (error: unknown) =>
            live && setAnswer({ key, view: { status: 'failed', message: describeError(error) } }),
        );
    const told = (askedId: string) => {
      const asking = askedId === callId ? asked.get(callId) : undefined;
      if (asking) void follow(asking);
    };
    if (passive) {
      askers.add(told);
      told(callId);
    } else {
      void follow(ask(api, callId, store.getState().auth.login?.access_token));
    }
    return () => {
      live = false;
      askers.delete(told);
    };
  }, [api, store, callId, key, passive]);
  const view: GuestContextView = answer?.key === key ? answer.view : { status: 'loading' };
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...view, retry };
}

/**
 * The guest's name from its welcome answers once the panel has it; its short label until then,
 * and for no call (`null`).
 */
export function useGuestName(callId: string | null, label: string): string {
  const view = useGuestContext(callId, { passive: true });
  return (view.status === 'ready' ? view.context.name : null) ?? label;
}
