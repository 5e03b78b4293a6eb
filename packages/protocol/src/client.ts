import type { z } from 'zod';
import { apiErrorSchema } from './envelope.ts';
import { routeStatuses, routeUrl, type HttpMethod, type Route } from './routes.ts';

/** A failed API call, carrying the server's error code and the fields it named. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

/** What every call may add, whatever its route. */
type CommonOptions = {
  token?: string;
  /** Lets a request outlive the page (spec §7: update-timestamp is sent with keepalive). */
  keepalive?: boolean;
  signal?: AbortSignal;
  /**
   * The company version the change was made against (`If-Match`): a company admin's edit is
   * refused with 412 `stale_version` when someone changed the company since.
   */
  ifMatch?: number;
};

/** A route's parts the caller fills in: each one typed by the route's own schema. */
export type CallOptions<R extends Route> = CommonOptions &
  (R extends { params: infer P extends z.ZodType } ? { params: z.input<P> } : { params?: never }) &
  (R extends { query: infer Q extends z.ZodType }
    ? object extends z.input<Q>
      ? { query?: z.input<Q> }
      : { query: z.input<Q> }
    : { query?: never }) &
  (R extends { body: infer B extends z.ZodType } ? { body: z.input<B> } : { body?: never }) &
  (R extends { multipart: true }
    ? {
        /** The multipart body; the browser sets its content type. */
        form: FormData;
        /** The share sent so far, 0 to 1 (fetch cannot report it; XMLHttpRequest can). */
        onUploadProgress?: (fraction: number) => void;
      }
    : { form?: never; onUploadProgress?: never });

/** The options argument, which may be left out when the route needs nothing from the caller. */
export type CallArgs<R extends Route> =
  object extends CallOptions<R> ? [options?: CallOptions<R>] : [options: CallOptions<R>];

/** A route's JSON body as the caller writes it (for bodies sent by other means than the client). */
export type RouteBody<R extends Route> = R extends { body: infer B extends z.ZodType }
  ? z.input<B>
  : never;

/** What a route answers, as its response schema parses it. */
export type RouteAnswer<R extends Route> = z.output<R['response']>;

/** A request as it goes out, the route resolved to its method and URL. */
export type OutgoingRequest = CommonOptions & {
  method: HttpMethod;
  body?: unknown;
  form?: FormData;
  onUploadProgress?: (fraction: number) => void;
};

/** What came back: the status and the parsed JSON body, if any. */
export type Answer = { status: number; payload: unknown };

/**
 * Sends a multipart `form` and reports its progress: the browser's (packages/protocol/src/browser.ts),
 * as fetch cannot report an upload's progress.
 */
export type ProgressTransport = (
  url: string,
  form: FormData,
  headers: Record<string, string>,
  options: OutgoingRequest & { onUploadProgress: (fraction: number) => void },
) => Promise<Answer>;

/** A refused request as the caller sees it: the server's error when it sent one, else its status. */
export function refusalError(status: number, payload: unknown): ApiRequestError {
  const parsed = apiErrorSchema.safeParse(payload);
  if (!parsed.success) return new ApiRequestError(status, 'http', `The server answered ${status}.`);
  const { code, message, fields } = parsed.data.error;
  return new ApiRequestError(status, code, message, fields);
}

export const unreachable = (cause: unknown) =>
  new ApiRequestError(0, 'network', 'The server could not be reached.', { cause: String(cause) });

/**
 * The one door from the apps to the REST API: calls a route of the table (routes.ts) with a body,
 * params and query its schemas type, parses the answer with its response schema, and turns every
 * failure (network, HTTP status, unexpected shape) into an {@link ApiRequestError}.
 */
export function createApiClient(
  baseUrl: string,
  transports: { fetch?: typeof fetch; withProgress?: ProgressTransport } = {},
): ApiClient {
  const fetchImpl = transports.fetch ?? fetch;
  async function send(url: string, options: OutgoingRequest): Promise<Answer> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.ifMatch !== undefined) headers['if-match'] = `"${options.ifMatch}"`;
    const { form, onUploadProgress } = options;
    if (form && onUploadProgress) {
      if (!transports.withProgress) throw new Error('upload progress needs a browser transport');
      return transports.withProgress(url, form, headers, { ...options, onUploadProgress });
    }
    let response: Response;
    try {
      response = await fetchImpl(url, {
        method: options.method,
        headers,
        ...(form
          ? { body: form }
          : options.body !== undefined
            ? { body: JSON.stringify(options.body) }
            : {}),
        ...(options.keepalive ? { keepalive: true } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      throw unreachable(error);
    }
    return { status: response.status, payload: await response.json().catch(() => undefined) };
  }

  return async <R extends Route>(route: R, ...[options]: CallArgs<R>): Promise<RouteAnswer<R>> => {
    const { params, query, ...rest } = (options ?? {}) as CallOptions<Route> & {
      params?: Record<string, unknown>;
      query?: Record<string, unknown>;
      body?: unknown;
      form?: FormData;
      onUploadProgress?: (fraction: number) => void;
    };
    const url = `${baseUrl}${routeUrl(route, params, query)}`;
    const { status, payload } = await send(url, { ...rest, method: route.method });
    const ok = status >= 200 && status < 300;
    if (!ok && !routeStatuses(route).includes(status)) throw refusalError(status, payload);
    // A 204 has no body; its schema (noContentSchema) reads that as null.
    const parsed = route.response.safeParse(
      status === 204 && payload === undefined ? null : payload,
    );
    if (!parsed.success) {
      throw new ApiRequestError(status, 'bad_response', 'The server sent an unexpected answer.');
    }
    return parsed.data as RouteAnswer<R>;
  };
}

/** Calls one route of the table: `api(routes.addCallReport, { token, body })`. */
export type ApiClient = <R extends Route>(
  route: R,
  ...options: CallArgs<R>
) => Promise<RouteAnswer<R>>;

/** How much of a file has come: bytes so far, and all of it when the server said how many. */
export type DownloadProgress = { loaded: number; total: number | null };

/**
 * Fetches what a route answers as a file rather than JSON (the calls CSV: `reportCalls` with
 * `format=csv`), as the signed-in caller: a link cannot send the Authorization header. Fails with
 * an {@link ApiRequestError}, as the client does.
 */
export type FileDownloader = <R extends Route>(
  route: R,
  options: CallOptions<R> & { onProgress?: (progress: DownloadProgress) => void },
) => Promise<Blob>;
