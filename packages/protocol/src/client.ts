import type { z } from 'zod';
import { apiErrorSchema } from './envelope.ts';

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

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** A multipart body instead of JSON (uploads); the browser sets its content type. */
  form?: FormData;
  /** With `form`: the share sent so far, 0 to 1 (fetch cannot report it; XMLHttpRequest can). */
  onUploadProgress?: (fraction: number) => void;
  token?: string;
  /** Lets a request outlive the page (spec §7: update-timestamp is sent with keepalive). */
  keepalive?: boolean;
  signal?: AbortSignal;
  /** Statuses besides 2xx whose body is the expected payload (e.g. 503 from the health check). */
  alsoAccept?: readonly number[];
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
  options: RequestOptions & { onUploadProgress: (fraction: number) => void },
) => Promise<Answer>;

export const unreachable = (cause: unknown) =>
  new ApiRequestError(0, 'network', 'The server could not be reached.', { cause: String(cause) });

/**
 * The one door from the apps to the REST API: sends JSON (or a multipart form), parses the
 * answer with `schema`, and turns every failure (network, HTTP status, unexpected shape) into an
 * {@link ApiRequestError}.
 */
export function createApiClient(
  baseUrl: string,
  transports: { fetch?: typeof fetch; withProgress?: ProgressTransport } = {},
) {
  const fetchImpl = transports.fetch ?? fetch;
  async function send(path: string, options: RequestOptions): Promise<Answer> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const url = `${baseUrl}${path}`;
    const { form, onUploadProgress } = options;
    if (form && onUploadProgress) {
      if (!transports.withProgress) throw new Error('upload progress needs a browser transport');
      return transports.withProgress(url, form, headers, { ...options, onUploadProgress });
    }
    let response: Response;
    try {
      response = await fetchImpl(url, {
        method: options.method ?? 'GET',
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

  return async function request<T extends z.ZodType>(
    path: string,
    schema: T,
    options: RequestOptions = {},
  ): Promise<z.infer<T>> {
    const { status, payload } = await send(path, options);
    const ok = status >= 200 && status < 300;
    if (!ok && !options.alsoAccept?.includes(status)) {
      const parsed = apiErrorSchema.safeParse(payload);
      if (parsed.success) {
        const { code, message, fields } = parsed.data.error;
        throw new ApiRequestError(status, code, message, fields);
      }
      throw new ApiRequestError(status, 'http', `The server answered ${status}.`);
    }
    const parsed = schema.safeParse(payload);
    if (!parsed.success) {
      throw new ApiRequestError(status, 'bad_response', 'The server sent an unexpected answer.');
    }
    return parsed.data;
  };
}
export type ApiClient = ReturnType<typeof createApiClient>;
