/**
 * Refusals raised by repositories and services, in the domain's words: what is wrong, not which
 * HTTP status says so. Each carries the `code`, `message` and optional `fields` a client sees;
 * the error handler (plugins/errors.ts) alone turns each kind into its status.
 */
export abstract class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The request names something that does not fit: another company's category, a wrong form. */
export class InvalidInputError extends DomainError {}

/** The caller may not do this: someone else's call, or a call the company's rules do not admit. */
export class ForbiddenError extends DomainError {}

/** Nothing answers to the id or name given. */
export class NotFoundError extends DomainError {}

/** The thing's state refuses it now: taken by another, ended, already done. */
export class ConflictError extends DomainError {}

/** The change was made against a copy that has changed since (a stale `If-Match`). */
export class StaleVersionError extends DomainError {}

/** A limit on size has no room left for this (a call's upload quota). */
export class LimitExceededError extends DomainError {}

/** A service the API relies on (the media server) could not do its part. */
export class UpstreamError extends DomainError {}

/** This server cannot take it now (it is stopping); another, or this one later, can. */
export class UnavailableError extends DomainError {}
