import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { SharedCounters } from '../cluster/shared-counters.ts';
import type { Database } from '../db/schema.ts';
import { FAILED_SIGN_IN_LIMITS, tooMany } from '../plugins/rate-limits.ts';
import { FailedSignIns } from './failed-sign-ins.ts';
import { hashPassword, verifyPassword } from './password.ts';

/**
 * SECURITY: an unknown e-mail is checked against this hash, so it takes as long as a wrong
 * password. Made once a process, in the background: at 128 MiB and a few hundred
 * milliseconds a hash, making it while the API starts held its start past Fastify's 10 s
 * plugin limit on a loaded machine (a replica restarted during calls exited instead).
 */
let unknownAccountHash: Promise<string> | undefined;
function unknownAccountHashOnce(): Promise<string> {
  if (!unknownAccountHash) {
    const made = hashPassword('no account has this password');
    // A failed hash is made again at the next guard's need, never kept, nor left unhandled.
    made.catch(() => (unknownAccountHash = undefined));
    unknownAccountHash = made;
  }
  return unknownAccountHash;
}

/**
 * Every check of an e-mail and password (sign-in, choosing a new password, an operator's
 * sign-in) goes through one guard, so each route that takes a password is as hard to guess
 * through as the sign-in: the same failed-attempt limits per address and per e-mail, counted
 * across the API's replicas. Guards of different `name`s count apart.
 */
export class SignInGuard {
  private constructor(private readonly failures: FailedSignIns) {
    // Started now, so the first unknown e-mail does not wait for it.
    void unknownAccountHashOnce();
  }

  static create(db: Kysely<Database>, name: string): SignInGuard {
    const failures = new FailedSignIns(new SharedCounters(db), [
      { name: `${name}:address`, ...FAILED_SIGN_IN_LIMITS.perAddress },
      { name: `${name}:email`, ...FAILED_SIGN_IN_LIMITS.perEmail },
    ]);
    return new SignInGuard(failures);
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
    const keys = [request.ip, email];
    // Counted as failed until the password is found right, so guesses sent all at once count too.
    const waitSeconds = await this.failures.attempt(keys);
    if (waitSeconds > 0) {
      void reply.header('retry-after', String(waitSeconds));
      throw tooMany(`${waitSeconds} seconds`);
    }
    const valid = await verifyPassword(password, storedHash ?? (await unknownAccountHashOnce()));
    if (valid && storedHash !== undefined) await this.failures.forgive(keys);
    return valid && storedHash !== undefined;
  }
}
