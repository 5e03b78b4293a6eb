import type { z } from 'zod';
import * as routeTable from './route-table.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One REST route (decision 0011): what the API registers and what the apps' client sends.
 * Paths are relative to the API's base (`/api`); `:name` segments are filled from `params`.
 */
export type Route = {
  readonly method: HttpMethod;
  readonly path: string;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  /** A JSON body. */
  readonly body?: z.ZodType;
  /** A multipart body instead (uploads): the caller builds the form. */
  readonly multipart?: true;
  /** The body of every status in `statuses`. */
  readonly response: z.ZodType;
  /** The statuses that answer with `response`; 200 when not named. */
  readonly statuses?: readonly number[];
};

/** The statuses whose body is the route's `response`. */
export type RouteStatus<R extends Route> = R extends { statuses: readonly (infer S)[] } ? S : 200;

export const routeStatuses = (route: Route): readonly number[] => route.statuses ?? [200];

/**
 * The REST route table (decision 0011), each route a named export of route-table.ts gathered
 * here as one namespace: `routes.config`. A namespace a page reads by fixed names lets the
 * bundler leave out every route, and its schemas, the page never names (decision 0044); an object
 * literal kept them all.
 */
export { routeTable as routes };

export type Routes = typeof routeTable;

/**
 * The route's path with its `:name` segments filled from `params` (each URI-encoded) and `query`
 * appended (undefined values left out).
 */
export function routeUrl(
  route: Route,
  params?: Readonly<Record<string, unknown>>,
  query?: Readonly<Record<string, unknown>>,
): string {
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`${route.path} needs :${name}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) search.append(name, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}
