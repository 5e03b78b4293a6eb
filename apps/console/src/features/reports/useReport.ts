import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ApiClient, FileDownloader } from '@frontdesk/protocol';
import { describeError } from '../../app/errors.ts';
import { useAppSelector, useAppStore } from '../../app/hooks.ts';
import { useServices } from '../../app/servicesContext.ts';

/** What a report's requests need: the client, the downloads, and the admin's token now. */
export type ReportRequest = { api: ApiClient; downloadFile: FileDownloader; token?: string };

export function useReportRequest(): () => ReportRequest {
  const { api, downloadFile } = useServices();
  const store = useAppStore();
  return useCallback(() => {
    const token = store.getState().auth.login?.access_token;
    return { api, downloadFile, ...(token ? { token } : {}) };
  }, [api, downloadFile, store]);
}

/**
 * The time zone reports count days in: the company's (its timetable's), UTC for a company that
 * keeps none, as the API does.
 */
export function useReportTimeZone(): string {
  return useAppSelector((state) => state.auth.company?.schedule?.timeZone) ?? 'UTC';
}

export type ReportState<T> =
  | { state: 'loading' }
  | { state: 'failed'; message: string }
  /** `refreshing`: shown while the page's new filters load, so the page does not blank. */
  | { state: 'ready'; data: T; refreshing: boolean };

type Settled<T> = {
  load: unknown;
  attempt: number;
  outcome: { ok: true; data: T } | { ok: false; message: string };
};

/**
 * A report's data, loaded again whenever `load` changes (a new filter: `load` must change only
 * then, e.g. through useCallback on the query) and on `retry`. Until the new answer comes the last
 * one stays on screen, marked as refreshing.
 */
export function useReport<T>(load: (request: ReportRequest) => Promise<T>) {
  const request = useReportRequest();
  const [attempt, setAttempt] = useState(0);
  const [settled, setSettled] = useState<Settled<T> | null>(null);
  const [shown, setShown] = useState<T | null>(null);

  useEffect(() => {
    let current = true;
    load(request()).then(
      (data) => {
        if (!current) return;
        setSettled({ load, attempt, outcome: { ok: true, data } });
        setShown(data);
      },
      (error: unknown) => {
        if (current)
          setSettled({ load, attempt, outcome: { ok: false, message: describeError(error) } });
      },
    );
    return () => {
      current = false;
    };
  }, [load, request, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  let view: ReportState<T>;
  if (settled && settled.load === load && settled.attempt === attempt) {
    view = settled.outcome.ok
      ? { state: 'ready', data: settled.outcome.data, refreshing: false }
      : { state: 'failed', message: settled.outcome.message };
  } else {
    view =
      shown === null ? { state: 'loading' } : { state: 'ready', data: shown, refreshing: true };
  }
  return { view, retry };
}

/**
 * A report loaded for a query (the page's filters): loaded again when the query's value changes,
 * not when an equal one is built on the next render. `load` must be a module-level function.
 */
export function useReportFor<Q, T>(
  query: Q,
  load: (request: ReportRequest, query: Q) => Promise<T>,
) {
  const key = JSON.stringify(query);
  const loadQuery = useMemo(() => {
    const fixed = JSON.parse(key) as Q;
    return (request: ReportRequest) => load(request, fixed);
  }, [key, load]);
  return useReport(loadQuery);
}
