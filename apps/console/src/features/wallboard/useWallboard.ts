import { useCallback, useEffect, useRef, useState } from 'react';
import { addListener, type UnknownAction } from '@reduxjs/toolkit';
import {
  CALLS_CHANGED_NOTICE,
  reportRoutes,
  TEAM_CHANGED_NOTICE,
  type ApiClient,
  type Supervisor,
  type Wallboard,
} from '@frontdesk/protocol';
import { describeError } from '../../app/errors.ts';
import { useAppStore } from '../../app/hooks.ts';
import type { ConsoleServices } from '../../app/services.ts';
import { useServices } from '../../app/servicesContext.ts';
import type { AppDispatch, RootState } from '../../app/store.ts';
import { chatRoomChanged, chatStatusChanged, serverNoticeReceived } from '../chat/chatSlice.ts';
import { createRefresher, type Refresher } from './wallboardRefresh.ts';

/**
 * What may have changed what the board shows, as the console already hears it: the API's
 * notices (a call let through, claimed or ended; an agent's availability, a sign-in or out), a
 * colleague's presence changing in the company room, and the chat coming back (notices sent
 * while it was away are lost).
 */
export function isWallboardSignal(action: UnknownAction, state: RootState): boolean {
  if (serverNoticeReceived.match(action)) {
    return action.payload === CALLS_CHANGED_NOTICE || action.payload === TEAM_CHANGED_NOTICE;
  }
  if (chatRoomChanged.match(action)) {
    const jid = action.payload.jid;
    return (
      state.auth.login?.rooms.some((room) => room.kind === 'company' && room.jid === jid) ?? false
    );
  }
  if (chatStatusChanged.match(action)) return action.payload === 'connected';
  return false;
}

export type LiveView<Board> =
  | { state: 'loading' }
  | { state: 'failed'; message: string }
  /**
   * `clockOffsetMs`: the API's clock less this browser's, so waits count up from the API's
   * instants right even on a computer whose clock is off. `failure`: why the last refresh did
   * not come, while the page shows the one before.
   */
  | { state: 'ready'; board: Board; clockOffsetMs: number; failure: string | null };

export type WallboardView = LiveView<Wallboard>;

/** Asks the API for a live report of "now", whose answer says when it was made. */
type LiveFetch<Board> = (api: ApiClient, token: string | undefined) => Promise<Board>;

const addAppListener = addListener.withTypes<RootState, AppDispatch, ConsoleServices>();

/**
 * A live report's data (the wallboard, the supervisor view): loaded when the page opens, again
 * shortly after each signal ({@link isWallboardSignal}), and by a slow safety refresh; never
 * polled every second.
 */
export function useLiveReport<Board extends { at: string }>(
  fetchBoard: LiveFetch<Board>,
): { view: LiveView<Board>; retry: () => void } {
  const { api } = useServices();
  const store = useAppStore();
  const [view, setView] = useState<LiveView<Board>>({ state: 'loading' });
  const refresher = useRef<Refresher | null>(null);

  useEffect(() => {
    let mounted = true;
    const load = async () => {
      const token = store.getState().auth.login?.access_token;
      try {
        const data = await fetchBoard(api, token);
        if (!mounted) return;
        const clockOffsetMs = Date.parse(data.at) - Date.now();
        setView({ state: 'ready', board: data, clockOffsetMs, failure: null });
      } catch (error) {
        if (!mounted) return;
        const message = describeError(error);
        setView((shown) =>
          shown.state === 'ready' ? { ...shown, failure: message } : { state: 'failed', message },
        );
      }
    };
    const refresh = createRefresher(load);
    refresher.current = refresh;
    const unsubscribe = store.dispatch(
      addAppListener({ predicate: isWallboardSignal, effect: () => refresh.signal() }),
    );
    refresh.start();
    return () => {
      mounted = false;
      refresh.stop();
      unsubscribe();
    };
  }, [api, store, fetchBoard]);

  const retry = useCallback(() => {
    setView({ state: 'loading' });
    refresher.current?.signal();
  }, []);
  return { view, retry };
}

const fetchWallboard: LiveFetch<Wallboard> = async (api, token) =>
  (await api(reportRoutes.wallboard, token ? { token } : {})).data;
const fetchSupervisor: LiveFetch<Supervisor> = async (api, token) =>
  (await api(reportRoutes.supervisor, token ? { token } : {})).data;

/** The live wallboard's data (issue 17). */
export const useWallboard = () => useLiveReport(fetchWallboard);
/** The supervisor view's data (issue 19): who is in which call, who waits. */
export const useSupervisor = () => useLiveReport(fetchSupervisor);
