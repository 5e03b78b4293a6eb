import { useCallback, useEffect, useRef, useState } from 'react';
import { routes, type DoctorReport } from '@frontdesk/protocol';
import { describeError } from '../../app/errors.ts';
import { useAppStore } from '../../app/hooks.ts';
import { useServices } from '../../app/servicesContext.ts';
import { checkRelays, type RelayResult } from './relayCheck.ts';

/** How far this browser's clock is from the server's, in whole seconds (positive: ahead). */
export type ClockComparison = { skewSeconds: number };

export type DoctorView =
  | { state: 'idle' }
  | { state: 'running' }
  | { state: 'failed'; message: string }
  | {
      state: 'loaded';
      report: DoctorReport;
      clock: ClockComparison;
      /** `checking` until every transport has answered or timed out. */
      relays: RelayResult[] | 'checking' | 'unsupported';
    };

/**
 * The admins' self-test, when asked for (it opens connections and relays): the API's checks
 * (`GET /api/admin/doctor`), then what only this browser can check — relay candidates from the
 * TURN server with the credentials the API minted for it, and this clock against the server's.
 */
export function useDoctor(): { view: DoctorView; run: () => void } {
  const { api } = useServices();
  const store = useAppStore();
  const [view, setView] = useState<DoctorView>({ state: 'idle' });
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const run = useCallback(() => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setView({ state: 'running' });
    // Read at the request, not at render: the token is renewed while the page is open.
    const token = store.getState().auth.login?.access_token;
    const sent = Date.now();
    api(routes.doctor, { signal: current.signal, token })
      .then(async ({ data: report }) => {
        // The server's clock at about the middle of the round trip.
        const skewSeconds = Math.round(
          ((sent + Date.now()) / 2 - Date.parse(report.checkedAt)) / 1000,
        );
        const loaded = { state: 'loaded', report, clock: { skewSeconds } } as const;
        if (typeof RTCPeerConnection === 'undefined') {
          setView({ ...loaded, relays: 'unsupported' });
          return;
        }
        setView({ ...loaded, relays: 'checking' });
        const relays = await checkRelays(report.iceServers);
        if (!current.signal.aborted) setView({ ...loaded, relays });
      })
      .catch((error: unknown) => {
        if (!current.signal.aborted) setView({ state: 'failed', message: describeError(error) });
      });
  }, [api, store]);

  return { view, run };
}
