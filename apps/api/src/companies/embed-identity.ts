import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  embedIdentityPayloadSchema,
  type Answers,
  type EmbedIdentityPayload,
  type EmbedSecret,
} from '@frontdesk/protocol';
import { changeCompany, type CompanyChangeOptions } from '../audit/company-changes.ts';
import type { Database } from '../db/schema.ts';
import { InvalidInputError } from '../domain-errors.ts';
import { requireCompany } from './company-repository.ts';

/**
 * The embedding site's signed identity (decision 0021). The company's site signs the welcome
 * answers it knows about its signed-in user on its own server:
 *
 *   payload = base64url(JSON.stringify({ company, answers, exp }))
 *   token   = payload + "." + hex(HMAC-SHA256(embedSecret, payload))
 *
 * The MAC covers the exact text sent, so no side has to rebuild a canonical form of the answers.
 * The widget only carries the token to the API; nothing the browser says is trusted.
 */
export function signIdentity(secret: string, payload: EmbedIdentityPayload): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${createHmac('sha256', secret).update(body).digest('hex')}`;
}

const refuse = (why: string, message: string): never => {
  throw new InvalidInputError('invalid_identity', message, { identity: why });
};

/**
 * The answers a token vouches for, once its MAC holds under the company's secret, it names this
 * company and has not expired; otherwise a refusal naming `identity` (what is wrong, never the
 * expected MAC). A company without a secret verifies nothing.
 */
export function verifyIdentity(
  secret: string | null,
  companyId: number,
  token: string,
  now: Date,
): Answers {
  const [body, mac, extra] = token.split('.');
  if (!body || !mac || extra !== undefined || !/^[0-9a-f]{64}$/.test(mac)) {
    return refuse('must be payload.signature', 'The identity token is not payload.signature.');
  }
  if (!secret) {
    return refuse(
      'the company has no embed secret',
      'This company has made no embed secret, so no identity can be verified.',
    );
  }
  const expected = createHmac('sha256', secret).update(body).digest();
  // SECURITY: compared in constant time, so the MAC cannot be guessed byte by byte.
  if (!timingSafeEqual(expected, Buffer.from(mac, 'hex'))) {
    return refuse('signature does not match', "The identity token's signature does not match.");
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return refuse('payload is not JSON', "The identity token's payload is not JSON.");
  }
  const payload = embedIdentityPayloadSchema.safeParse(json);
  if (!payload.success) {
    return refuse('payload must be {company, answers, exp}', 'The identity payload is malformed.');
  }
  if (payload.data.company !== companyId) {
    return refuse('signed for another company', 'The identity token names another company.');
  }
  if (payload.data.exp * 1000 <= now.getTime()) {
    return refuse('expired', 'The identity token has expired.');
  }
  return payload.data.answers;
}

/** The names of the submitted answers that the signed ones vouch for: present and unchanged. */
export function vouchedFields(signed: Answers, submitted: Answers): string[] {
  return Object.keys(submitted)
    .filter((name) => name in signed && signed[name] === submitted[name])
    .sort();
}

/** The company's embed secret as its admins see it. */
export async function embedSecretOf(db: Kysely<Database>, companyId: number): Promise<EmbedSecret> {
  const company = await requireCompany(db, companyId);
  return {
    secret: company.embed_secret,
    rotatedAt: company.embed_secret_rotated_at?.toISOString() ?? null,
  };
}

/**
 * Makes the company a new embed secret (its first, or in place of one that may have leaked):
 * tokens signed with the old one stop verifying at once. The audit log says that it changed,
 * never the secret itself.
 */
export async function rotateEmbedSecret(
  db: Kysely<Database>,
  options: CompanyChangeOptions,
): Promise<{ result: EmbedSecret; version: number }> {
  return changeCompany(db, options, async (trx) => {
    const secret = `fdes_${randomBytes(32).toString('base64url')}`;
    const rotatedAt = new Date();
    const before = await requireCompany(trx, options.companyId);
    await trx
      .updateTable('companies')
      .set({ embed_secret: secret, embed_secret_rotated_at: rotatedAt })
      .where('id', '=', options.companyId)
      .execute();
    return {
      action: 'company.embedSecret',
      target: `company ${options.companyId}`,
      before: { embedSecret: before.embed_secret ? 'set' : 'none' },
      after: { embedSecret: 'new' },
      result: { secret, rotatedAt: rotatedAt.toISOString() },
    };
  });
}
