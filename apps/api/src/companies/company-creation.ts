import { sql, type Kysely } from 'kysely';
import { newCompanySchema, type CompanySettingsInput, type NewCompany } from '@frontdesk/protocol';
import { newRoomPassword } from '@frontdesk/chat/server';
import { generatePassword, hashPassword } from '../auth/password.ts';
import { recordAuditEntry, type Actor } from '../audit/company-changes.ts';
import type { Database } from '../db/schema.ts';

export { newCompanySchema, type NewCompany };

/** The e-mail already signs someone in (logins are unique across companies). */
export class EmailTakenError extends Error {
  constructor(
    readonly email: string,
    readonly companyId: number,
  ) {
    super(
      `${email} already signs in a member of staff (of company ${companyId}); ` +
        'every login is unique across companies: choose another e-mail',
    );
    this.name = 'EmailTakenError';
  }
}

/** The new company and its admin, with the password generated for it (never stored in clear). */
export type CreatedCompany = {
  companyId: number;
  name: string;
  /** Its chat room's name (`conference_name`). */
  conferenceName: string;
  adminId: number;
  adminEmail: string;
  /** Shown to the operator once; only its scrypt hash is kept. */
  password: string;
};

/** Who creates the company, and whether the admin's password is theirs to keep. */
export type CompanyCreationOptions = {
  /** The audit log's actor of `company.create`: the command line, or the platform operator. */
  actor: Actor;
  /**
   * Set when someone other than the admin reads the password (the platform operator, decision
   * 0017): it is then a one-time password, working until this time, and the admin chooses their
   * own at first sign-in. `null` for the command line's, which is kept: whoever runs it on the
   * server is trusted with the installation anyway.
   */
  oneTimePasswordExpiresAt: Date | null;
};

/** `npm run create-company`: the command line, whose admin keeps the printed password. */
export const COMMAND_LINE_CREATION: CompanyCreationOptions = {
  actor: { staffId: null, label: 'command line' },
  oneTimePasswordExpiresAt: null,
};

/**
 * A room name from the company's name: what XMPP allows in a room's address and reads well in
 * logs (`Acme Ltd.` → `acme-ltd`); a name with no Latin letters or digits gives `company`.
 */
export function conferenceSlug(name: string): string {
  const slug = name
    // Accents split off their letters, then dropped: `Hôtel` → `hotel`.
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug || 'company';
}

/** The company of the member of staff who signs in with `email` (lower-cased), if any. */
async function companyOfLogin(db: Kysely<Database>, email: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('staff')
    .select('company_id')
    .where('email', '=', email)
    .executeTakeFirst();
  return row?.company_id;
}

const UNIQUE_VIOLATION = '23505';
/** Whether PostgreSQL refused a row for a unique index (two creations racing for one e-mail). */
export const isUniqueViolation = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'code' in error && error.code === UNIQUE_VIOLATION;

/**
 * The one way a company is made (`npm run create-company` and `POST /api/operator/companies`):
 * open at every hour, with one category ("General") so that its guest page works at once, and
 * its first admin with a generated password of 144 random bits; the creation is the first entry
 * of its audit log. One transaction: a refused e-mail leaves no company behind. Throws
 * {@link EmailTakenError} when the e-mail is taken and a ZodError for bad input.
 */
export async function createCompanyWithAdmin(
  db: Kysely<Database>,
  input: NewCompany,
  { actor, oneTimePasswordExpiresAt }: CompanyCreationOptions = COMMAND_LINE_CREATION,
): Promise<CreatedCompany> {
  const company = newCompanySchema.parse(input);
  // scrypt takes most of a second and 128 MiB: done before the transaction holds any lock.
  const password = generatePassword();
  const passwordHash = await hashPassword(password);
  const settings: CompanySettingsInput = {
    websiteTitle: company.name,
    welcomeMsg: `Welcome to ${company.name}. Talk to one of our team face to face.`,
  };
  try {
    return await db.transaction().execute(async (trx) => {
      const taken = await companyOfLogin(trx, company.adminEmail);
      if (taken !== undefined) throw new EmailTakenError(company.adminEmail, taken);
      const slug = conferenceSlug(company.name);
      // The first of `acme`, `acme-2`, `acme-3`, … no company has yet.
      const used = new Set(
        (
          await trx
            .selectFrom('companies')
            .select('conference_name')
            .where(
              sql<boolean>`conference_name = ${slug} or conference_name ~ ${`^${slug}-[0-9]+$`}`,
            )
            .execute()
        ).map((row) => row.conference_name),
      );
      let conferenceName = slug;
      for (let n = 2; used.has(conferenceName); n += 1) conferenceName = `${slug}-${n}`;
      const { id: companyId } = await trx
        .insertInto('companies')
        .values({
          name: company.name,
          conference_name: conferenceName,
          room_password: newRoomPassword(),
          settings: JSON.stringify(settings),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('categories')
        .values({
          company_id: companyId,
          name: 'General',
          room_name: `${conferenceName}-general`,
          position: 0,
        })
        .execute();
      const { id: adminId, name } = await trx
        .insertInto('staff')
        .values({
          company_id: companyId,
          email: company.adminEmail,
          name: company.adminName ?? company.adminEmail.split('@')[0] ?? company.adminEmail,
          role: 'admin',
          password_hash: passwordHash,
          one_time_password_expires_at: oneTimePasswordExpiresAt,
        })
        .returning(['id', 'name'])
        .executeTakeFirstOrThrow();
      await recordAuditEntry(trx, companyId, actor, {
        action: 'company.create',
        target: `company ${companyId}`,
        before: null,
        after: { name: company.name, admin: { id: adminId, email: company.adminEmail, name } },
      });
      return {
        companyId,
        name: company.name,
        conferenceName,
        adminId,
        adminEmail: company.adminEmail,
        password,
      };
    });
  } catch (error) {
    // Two creations with one e-mail at once: the unique index refuses the second.
    if (isUniqueViolation(error) && !(error instanceof EmailTakenError)) {
      const taken = await companyOfLogin(db, company.adminEmail);
      if (taken !== undefined) throw new EmailTakenError(company.adminEmail, taken);
    }
    throw error;
  }
}
