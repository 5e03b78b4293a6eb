import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import { loginEmailSchema, personNameSchema, type OperatorCompany } from '@frontdesk/protocol';
import { generatePassword, hashPassword } from '../auth/password.ts';
import { isUniqueViolation } from '../companies/company-creation.ts';
import type { Database } from '../db/schema.ts';

/** What `npm run create-operator` takes. */
export const newOperatorSchema = z.strictObject({
  email: loginEmailSchema,
  /** Default the e-mail's local part. */
  name: personNameSchema.optional(),
});
export type NewOperator = z.input<typeof newOperatorSchema>;

/** The e-mail already signs an operator in. */
export class OperatorEmailTakenError extends Error {
  constructor(readonly email: string) {
    super(`${email} already signs a platform operator in: choose another e-mail`);
    this.name = 'OperatorEmailTakenError';
  }
}

/**
 * Creates a platform operator (decision 0017) with a generated password of 144 random bits,
 * shown once by the command; only its hash is kept. Only the command line makes operators: no
 * route does. Throws {@link OperatorEmailTakenError} and a ZodError for bad input.
 */
export async function createOperator(
  db: Kysely<Database>,
  input: NewOperator,
): Promise<{ id: number; email: string; name: string; password: string }> {
  const operator = newOperatorSchema.parse(input);
  const password = generatePassword();
  const name = operator.name ?? operator.email.split('@')[0] ?? operator.email;
  try {
    const { id } = await db
      .insertInto('operators')
      .values({ email: operator.email, name, password_hash: await hashPassword(password) })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id, email: operator.email, name, password };
  } catch (error) {
    if (isUniqueViolation(error)) throw new OperatorEmailTakenError(operator.email);
    throw error;
  }
}

/** The operator who signs in with `email` (already lower-cased), active or not. */
export async function findOperatorByEmail(db: Kysely<Database>, email: string) {
  return db.selectFrom('operators').selectAll().where('email', '=', email).executeTakeFirst();
}

/** `GET /operator/companies`: every company with its active admins' e-mails, newest first. */
export async function listCompaniesForOperator(db: Kysely<Database>): Promise<OperatorCompany[]> {
  const rows = await db
    .selectFrom('companies')
    .select((eb) => [
      'companies.id',
      'companies.name',
      'companies.activated',
      'companies.created_at',
      eb
        .selectFrom('staff')
        .select(
          sql<string[]>`coalesce(array_agg(staff.email order by staff.id), '{}')`.as('emails'),
        )
        .whereRef('staff.company_id', '=', 'companies.id')
        .where('staff.role', '=', 'admin')
        .where('staff.active', '=', true)
        .as('adminEmails'),
    ])
    .orderBy('companies.id', 'desc')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    activated: row.activated,
    adminEmails: row.adminEmails ?? [],
    createdAt: row.created_at.toISOString(),
  }));
}
