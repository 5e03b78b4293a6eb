import { useCallback, useEffect, useState } from 'react';
import { ApiRequestError, routes, type ApiClient, type CompanyDetails } from '@frontdesk/protocol';
import { describeError } from '../../../app/errors.ts';
import { useAppSelector, useAppStore } from '../../../app/hooks.ts';
import { useServices } from '../../../app/servicesContext.ts';
import { t } from '../../../i18n/messages.ts';
import { refusalOf, type SaveStatus } from '../SaveSummary.tsx';

/** What a page's requests need: the client, the company's route params and the admin's token. */
export type AdminRequest = {
  api: ApiClient;
  companyId: number;
  params: { id: string };
  token: string | undefined;
};

export type ResourceView<T> =
  | { state: 'loading' }
  | { state: 'failed'; message: string }
  | { state: 'ready'; data: T; version: number };

/**
 * How the page's last change went, for the admin: a sentence of what was done, or (through the
 * settings editor's SaveSummary) a refusal or a stale version (412) to reload.
 */
export type Outcome =
  | { kind: 'idle' }
  | { kind: 'done'; message: string }
  | Extract<SaveStatus, { kind: 'stale' } | { kind: 'failed' }>;

/**
 * A change's answer: the route's data, or the refusal (its `fields` for the form to show) and how
 * the page tells it.
 */
export type WriteResult<R> =
  | { ok: true; data: R }
  | { ok: false; error: unknown; outcome: Exclude<Outcome, { kind: 'idle' } | { kind: 'done' }> };

/**
 * One admin page's data (`load`, e.g. the staff list) together with the company's `version`
 * (`GET /company/:id`), which every change sends as `If-Match`: a change made against a company
 * someone else changed since is refused (412) instead of overwriting theirs. After each change
 * both are loaded again, as the change bumped the version. One change at a time (`busy`).
 * `load` must keep its identity (a module-level function): a new one loads the page again; it
 * gets the company's details as the same request loads them (a page that needs its settings).
 */
export function useAdminResource<T>(
  load: (request: AdminRequest, company: Promise<CompanyDetails>) => Promise<T>,
) {
  const { api } = useServices();
  const store = useAppStore();
  const companyId = useAppSelector((state) => state.auth.login?.user.companyId);
  const [view, setView] = useState<ResourceView<T>>({ state: 'loading' });
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const [busy, setBusy] = useState(false);

  const request = useCallback((): AdminRequest => {
    if (companyId === undefined) throw new Error(t('sessionEnded'));
    return {
      api,
      companyId,
      params: { id: String(companyId) },
      token: store.getState().auth.login?.access_token,
    };
  }, [api, companyId, store]);

  /** The page's data and the company's version, both as they are now. */
  const fetchAll = useCallback(async () => {
    const current = request();
    const company = current.api(routes.company, { params: current.params });
    const [data, details] = await Promise.all([
      load(
        current,
        company.then(({ data: loaded }) => loaded),
      ),
      company,
    ]);
    return { data, version: details.data.version };
  }, [load, request]);

  const reload = useCallback(async () => {
    try {
      const fresh = await fetchAll();
      setView({ state: 'ready', ...fresh });
      return true;
    } catch (error) {
      setView({ state: 'failed', message: describeError(error) });
      return false;
    }
  }, [fetchAll]);

  useEffect(() => {
    let current = true;
    fetchAll().then(
      (fresh) => current && setView({ state: 'ready', ...fresh }),
      (error: unknown) => current && setView({ state: 'failed', message: describeError(error) }),
    );
    return () => {
      current = false;
    };
  }, [fetchAll]);

  /**
   * Sends one change with the version the page shows; `describe` says what it did. A 412 offers
   * to reload (the form keeps what was typed), any other refusal is told in the API's words: on
   * the page, or by the caller when `report` is `'caller'` (a dialog that stays open).
   */
  async function write<R>(
    send: (request: AdminRequest, ifMatch: number) => Promise<R>,
    describe: (data: R) => string,
    report: 'page' | 'caller' = 'page',
  ): Promise<WriteResult<R>> {
    if (view.state !== 'ready') {
      return { ok: false, error: null, outcome: { kind: 'failed', message: t('loading') } };
    }
    setBusy(true);
    setOutcome({ kind: 'idle' });
    try {
      const data = await send(request(), view.version);
      await reload();
      setOutcome({ kind: 'done', message: describe(data) });
      return { ok: true, data };
    } catch (error) {
      const failure = refusalOf(error);
      if (report === 'page') setOutcome(failure);
      return { ok: false, error, outcome: failure };
    } finally {
      setBusy(false);
    }
  }

  /**
   * The page as it is now, when nothing is being sent; a failure keeps what is shown (the
   * admin did not ask, so it is no reason to take the page away).
   */
  const refresh = useCallback(async () => {
    if (busy) return;
    try {
      const fresh = await fetchAll();
      setView({ state: 'ready', ...fresh });
    } catch {
      // The next change or reload tells the admin if the API is really gone.
    }
  }, [busy, fetchAll]);

  /** After a 412: the page as it is now, so the admin can try again against it. */
  async function reloadAfterStale() {
    if (await reload()) setOutcome({ kind: 'idle' });
  }

  return { view, outcome, setOutcome, busy, write, reload, refresh, reloadAfterStale, request };
}

/**
 * A refusal's message for one field (`error.fields`), when the API named it or one of its items
 * (`field.<n>`, e.g. an unknown id in a list).
 */
export function fieldError(result: WriteResult<unknown>, field: string): string | undefined {
  if (result.ok || !(result.error instanceof ApiRequestError)) return undefined;
  const named = Object.entries(result.error.fields).find(
    ([name]) => name === field || name.startsWith(`${field}.`),
  );
  return named?.[1];
}
