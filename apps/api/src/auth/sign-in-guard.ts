import type { FastifyReply, FastifyRequest } from 'fastify';
import { FAILED_SIGN_IN_LIMITS, tooMany } from '../plugins/rate-limits.ts';
import { FailedSignIns } from './failed-sign-ins.ts';
import { hashPassword, verifyPassword } from './password.ts';

/**
 * Every check of an e-mail and password (sign-in, choosing a new password, an operator's
 * sign-in) goes through one guard, so each route that takes a password is as hard to guess
 * through as the sign-in: the same failed-attempt limits per address and per e-mail.
 */
export class SignInGuard {
  private readonly byAddress = new FailedSignIns(
    FAILED_SIGN_IN_LIMITS.perAddress.max,
    FAILED_SIGN_IN_LIMITS.perAddress.windowMs,
  );
  private readonly byEmail = new FailedSignIns(
    FAILED_SIGN_IN_LIMITS.perEmail.max,
    FAILED_SIGN_IN_LIMITS.perEmail.windowMs,
  );

  private constructor(private readonly unknownAccountHash: string) {}

  static async create(): Promise<SignInGuard> {
    // SECURITY: an unknown e-mail is checked against this hash, so it takes as long as a wrong password.
    return new SignInGuard(await hashPassword('no account has this password'));
  }

  /**
   * Whether `password` matches `storedHash` (`undefined`: no account has the e-mail). Throws 429
   * (with Retry-After) while the address, or the e-mail from many addresses, failed too often,
   * whether the account exists or not, so the limit tells nothing of it either.
   */
  async check(
    request: FastifyRequest,
    reply: FastifyReply,
    email: string,
    password: string,
    storedHash: string | undefined,
  ): Promise<boolean> {
    const now = Date.now();
    const waitSeconds = Math.max(
      this.byAddress.retryAfterSeconds(request.ip, now),
      this.byEmail.retryAfterSeconds(email, now),
    );
    if (waitSeconds > 0) {
      void reply.header('retry-after', String(waitSeconds));
      throw tooMany(`${waitSeconds} seconds`);
    }
    // Counted as failed until the password is found right, so guesses sent all at once count too.
    this.byAddress.record(request.ip, now);
    this.byEmail.record(email, now);
    const valid = await verifyPassword(password, storedHash ?? this.unknownAccountHash);
    if (valid && storedHash !== undefined) {
      this.byAddress.forgive(request.ip, now);
      this.byEmail.forgive(email, now);
    }
    return valid && storedHash !== undefined;
  }
}
