import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { bearerToken } from '../plugins/auth.ts';
import { HttpError } from '../plugins/errors.ts';

/** How long an operator's sign-in lasts: a working day; there is no refresh. */
export const OPERATOR_SESSION_TTL_MS = 8 * 60 * 60 * 1000;

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Opens an operator's session. SECURITY: its token is opaque (`op_` and 256 random bits), kept
 * only as its SHA-256: no company route, which takes the API's signed JWTs, accepts it, and no
 * operator route accepts a JWT (decision 0017).
 */
export async function openOperatorSession(db: Kysely<Database>, operatorId: number, now: Date) {
  const token = `op_${randomBytes(32).toString('base64url')}`;
  const expiresAt = new Date(now.getTime() + OPERATOR_SESSION_TTL_MS);
  await db
    .insertInto('operator_sessions')
    .values({ operator_id: operatorId, token_hash: digest(token), expires_at: expiresAt })
    .execute();
  return { token, expiresAt };
}

/** The signed-in operator behind a request's bearer token. */
export type OperatorPrincipal = { operatorId: number; sessionId: number; email: string };

/**
 * The operator whose live session the request's bearer token opens, asked of the database on
 * every request (sign-out and deactivation take effect at once); 401 for anything else, a
 * company's staff token included.
 */
export async function authenticateOperator(request: FastifyRequest): Promise<OperatorPrincipal> {
  const token = bearerToken(request);
  const row =
    token === undefined
      ? undefined
      : await request.server.db
          .selectFrom('operator_sessions')
          .innerJoin('operators', 'operators.id', 'operator_sessions.operator_id')
          .select([
            'operators.id as operatorId',
            'operator_sessions.id as sessionId',
            'operators.email as email',
          ])
          .where('operator_sessions.token_hash', '=', digest(token))
          .where('operator_sessions.revoked_at', 'is', null)
          .where('operator_sessions.expires_at', '>', new Date())
          .where('operators.active', '=', true)
          .executeTakeFirst();
  if (!row) {
    throw new HttpError(
      401,
      'operators_only',
      'Only a signed-in platform operator may make this call: POST /api/operator/login.',
    );
  }
  return row;
}

/** The operator's sign-out: the token stops at once (idempotent). */
export async function revokeOperatorSession(
  db: Kysely<Database>,
  sessionId: number,
): Promise<void> {
  await db
    .updateTable('operator_sessions')
    .set({ revoked_at: new Date() })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}
