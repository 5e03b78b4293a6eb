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
  token?: string;
  /** Lets a request outlive the page (spec §7: update-timestamp is sent with keepalive). */
  keepalive?: boolean;
  signal?: AbortSignal;
  /** Statuses besides 2xx whose body is the expected payload (e.g. 503 from the health check). */
  alsoAccept?: readonly number[];
};

/**
 * The one door from the apps to the REST API: sends JSON, parses the answer with `schema`, and
 * turns every failure (network, HTTP status, unexpected shape) into an {@link ApiRequestError}.
 */
export function createApiClient(baseUrl: string, fetchImpl: typeof fetch = fetch) {
  return async function request<T extends z.ZodType>(
    path: string,
    schema: T,
    options: RequestOptions = {},
  ): Promise<z.infer<T>> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let response: Response;
    try {
      response = await fetchImpl(`${baseUrl}${path}`, {
        method: options.method ?? 'GET',
        headers,
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
        ...(options.keepalive ? { keepalive: true } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      throw new ApiRequestError(0, 'network', 'The server could not be reached.', {
        cause: String(error),
      });
    }
    const payload: unknown = await response.json().catch(() => undefined);
    if (!response.ok && !options.alsoAccept?.includes(response.status)) {
      const parsed = apiErrorSchema.safeParse(payload);
      if (parsed.success) {
        const { code, message, fields } = parsed.data.error;
        throw new ApiRequestError(response.status, code, message, fields);
      }
      throw new ApiRequestError(response.status, 'http', `The server answered ${response.status}.`);
    }
    const parsed = schema.safeParse(payload);
    if (!parsed.success) {
      throw new ApiRequestError(
        response.status,
        'bad_response',
        'The server sent an unexpected answer.',
      );
    }
    return parsed.data;
  };
}
export type ApiClient = ReturnType<typeof createApiClient>;
