import type { FastifySchema } from 'fastify';
import {
  routeStatuses,
  type apiErrorSchema,
  type Route,
  type RouteStatus,
} from '@frontdesk/protocol';
import { errorResponses } from '../plugins/errors.ts';

/** What only the API knows of a route: how the OpenAPI document describes it. */
type RouteDocs = Pick<
  FastifySchema,
  'tags' | 'summary' | 'description' | 'security' | 'consumes' | 'hide'
>;

/** The schemas of a table route as Fastify (and its zod type provider) reads them. */
type TableSchema<R extends Route, E extends number> = RouteDocs &
  (R extends { params: infer P } ? { params: P } : unknown) &
  (R extends { query: infer Q } ? { querystring: Q } : unknown) &
  (R extends { body: infer B } ? { body: B } : unknown) & {
    response: { [S in RouteStatus<R>]: R['response'] } & Record<E, typeof apiErrorSchema>;
  };

/**
 * The method, URL and schemas of a route of the protocol's table (decision 0011), to spread into
 * `app.route({ ...fromTable(routes.x, [400, 401], { tags, summary }), handler })`: the route's
 * path and schemas are the ones the apps' client calls it with, and `errors` adds the error
 * statuses this route can answer.
 */
export function fromTable<R extends Route, const E extends number = never>(
  route: R,
  errors: readonly E[],
  docs: RouteDocs,
): { method: R['method']; url: R['path']; schema: TableSchema<R, E> } {
  const success = Object.fromEntries(
    routeStatuses(route).map((status) => [status, route.response]),
  );
  const schema = {
    ...docs,
    ...(route.params ? { params: route.params } : {}),
    ...(route.query ? { querystring: route.query } : {}),
    ...(route.body ? { body: route.body } : {}),
    response: { ...success, ...errorResponses(...errors) },
  };
  return { method: route.method, url: route.path, schema: schema as TableSchema<R, E> };
}
