/**
 * How long a one-time password (an invite, a reset, a company's first admin made by the platform
 * operator) can still be exchanged for the member's own: a week, time enough to hand it over,
 * short enough that a forgotten one does not lie about (decision 0017).
 */
export const ONE_TIME_PASSWORD_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** When a one-time password made at `now` stops working. */
export const oneTimePasswordExpiry = (now: Date): Date =>
  new Date(now.getTime() + ONE_TIME_PASSWORD_TTL_MS);
