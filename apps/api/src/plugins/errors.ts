import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { apiErrorSchema, type ApiError } from '@frontdesk/protocol';
import {
  ConflictError,
  StaleVersionError,
  DomainError,
  ForbiddenError,
  InvalidInputError,
  LimitExceededError,
  NotFoundError,
  UnavailableError,
  UpstreamError,
} from '../domain-errors.ts';

/** Replies with the one error shape every client understands. */
export function sendError(
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  fields?: Record<string, string>,
) {
  const body: ApiError = { error: { code, message, ...(fields ? { fields } : {}) } };
  return reply.code(status).type('application/json').send(body);
}

/** Response schemas for the error statuses a route can answer (documents them in OpenAPI). */
export function errorResponses<S extends number>(
  ...statuses: S[]
): Record<S, typeof apiErrorSchema> {
  return Object.fromEntries(statuses.map((status) => [status, apiErrorSchema])) as Record<
    S,
    typeof apiErrorSchema
  >;
}

/**
 * A refusal raised by a route or plugin for a purely HTTP concern (a missing token, a rate
 * limit, a malformed upload); domain code throws a {@link DomainError} instead.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

type DomainErrorKind = abstract new (...args: never[]) => DomainError;

/** The one place a domain refusal gets its HTTP status. */
const DOMAIN_STATUSES: ReadonlyArray<readonly [DomainErrorKind, number]> = [
  [InvalidInputError, 400],
  [ForbiddenError, 403],
  [NotFoundError, 404],
  [ConflictError, 409],
  [StaleVersionError, 412],
  [LimitExceededError, 413],
  [UpstreamError, 502],
  [UnavailableError, 503],
];

/**
 * A domain refusal with its status; `undefined` for any other error, and for a kind missing from
 * {@link DOMAIN_STATUSES} (a bug, answered as a 500).
 */
function domainRefusal(error: unknown): { status: number; refusal: DomainError } | undefined {
  if (!(error instanceof DomainError)) return undefined;
  const status = DOMAIN_STATUSES.find(([kind]) => error instanceof kind)?.[1];
  return status === undefined ? undefined : { status, refusal: error };
}

/** Fastify's own refusals of a body, under the codes our clients see. */
const FASTIFY_CODES: Readonly<Record<string, string>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'body_too_large',
};

/** Validation failures name their fields; 4xx keep their message; 5xx never leak internals. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return sendError(reply, error.statusCode, error.code, error.message, error.fields);
    }
    const domain = domainRefusal(error);
    if (domain) {
      const { status, refusal } = domain;
      return sendError(reply, status, refusal.code, refusal.message, refusal.fields);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        // instancePath is "/a/0/b" from the zod path; an empty one means the whole body or query.
        const path = issue.instancePath.slice(1).replaceAll('/', '.');
        if (issue.keyword === 'unrecognized_keys' && Array.isArray(issue.params.keys)) {
          for (const key of issue.params.keys) {
            fields[path ? `${path}.${key}` : String(key)] ??= 'is not allowed';
          }
          continue;
        }
        fields[path || (error.validationContext ?? 'body')] ??= issue.message ?? 'is invalid';
      }
      const names = Object.keys(fields).join(', ');
      return sendError(reply, 400, 'invalid_request', `Invalid ${names}.`, fields);
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      const code = FASTIFY_CODES[error.code] ?? error.code?.toLowerCase() ?? 'bad_request';
      return sendError(reply, status, code, error.message);
    }
    request.log.error({ err: error }, 'request failed');
    return sendError(reply, 500, 'internal', 'Something went wrong on our side. Please try again.');
  });
}
