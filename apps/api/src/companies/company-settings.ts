import { isDeepStrictEqual } from 'node:util';
import type { Kysely } from 'kysely';
import {
  companySettingsSchema,
  UPLOADED_FILE_URL,
  type CompanySettings,
  type CompanySettingsInput,
  type CompanyUpdateBody,
} from '@frontdesk/protocol';
import { changeCompany, type CompanyChangeOptions } from '../audit/company-changes.ts';
import type { Database } from '../db/schema.ts';
import { InvalidInputError } from '../domain-errors.ts';
import { requireCompany } from './company-repository.ts';

/** The settings that name a file, and so may be one of the company's uploads. */
const FILE_FIELDS = [
  'logoImageUrl',
  'websiteUrl',
  'backgroundImgUrl',
  'waterMarkLogo',
  'faviconUrl',
  'waitingImageUrl',
  'ratingPageImage',
  'holdPageImage',
] as const satisfies readonly (keyof CompanySettings)[];

/**
 * SECURITY: an upload URL in the settings must be an image an admin of this company uploaded:
 * no other company's file, and no file a guest sent in a call, ever shows on its pages.
 */
async function assertOwnImages(
  db: Kysely<Database>,
  companyId: number,
  body: CompanyUpdateBody,
): Promise<void> {
  const named = FILE_FIELDS.flatMap((field) => {
    const url = body[field];
    return typeof url === 'string' && UPLOADED_FILE_URL.test(url)
      ? [{ field, id: url.slice(url.lastIndexOf('/') + 1) }]
      : [];
  });
  if (named.length === 0) return;
  const found = await db
    .selectFrom('uploads')
    .select('id')
    .where('company_id', '=', companyId)
    .where('type', '=', 'image')
    .where('staff_id', 'is not', null)
    .where(
      'id',
      'in',
      named.map((n) => n.id),
    )
    .execute();
  const own = new Set(found.map((row) => row.id));
  const fields = Object.fromEntries(
    named
      .filter((n) => !own.has(n.id))
      .map((n) => [n.field, "must be an image uploaded by the company's staff"]),
  );
  if (Object.keys(fields).length > 0) {
    throw new InvalidInputError(
      'unknown_upload',
      `Upload the image through POST /api/upload/image first: ${Object.keys(fields).join(', ')}.`,
      fields,
    );
  }
}

type Changes = { before: Record<string, unknown>; after: Record<string, unknown> };

/** The fields whose value (defaults filled in) differs, as they were and as they become. */
function changedSettings(
  before: CompanySettings,
  after: CompanySettings,
  fields: readonly string[],
): Changes {
  const changes: Changes = { before: {}, after: {} };
  for (const field of fields as (keyof CompanySettings)[]) {
    if (isDeepStrictEqual(before[field], after[field])) continue;
    changes.before[field] = before[field];
    changes.after[field] = after[field];
  }
  return changes;
}

/**
 * `PATCH /company/:id`: sets the fields named, resets those given as `null` to the app's
 * default (the key leaves the stored settings), and renames the company when `name` is given.
 * The audit entry holds only the fields whose value changed.
 */
export async function updateCompanySettings(
  db: Kysely<Database>,
  options: CompanyChangeOptions,
  body: CompanyUpdateBody,
): Promise<{ version: number }> {
  const { companyId } = options;
  await assertOwnImages(db, companyId, body);
  const { version } = await changeCompany(db, options, async (trx) => {
    const company = await requireCompany(trx, companyId);
    const { name, ...patch } = body;
    // A field reset to `null` leaves the stored settings, so the app's default applies.
    const stored = Object.fromEntries(
      Object.entries({ ...company.settings, ...patch }).filter(([, value]) => value !== null),
    );
    const changes = changedSettings(
      companySettingsSchema.parse(company.settings),
      companySettingsSchema.parse(stored),
      Object.keys(patch),
    );
    if (name !== undefined && name !== company.name) {
      changes.before.name = company.name;
      changes.after.name = name;
    }
    await trx
      .updateTable('companies')
      .set({ name: name ?? company.name, settings: JSON.stringify(stored) })
      .where('id', '=', companyId)
      .execute();
    return { action: 'company.update', target: `company ${companyId}`, ...changes, result: null };
  });
  return { version };
}

/** The sites that may frame the company's guest page (CSP frame-ancestors). */
export async function allowedOriginsOf(db: Kysely<Database>, companyId: number): Promise<string[]> {
  const company = await requireCompany(db, companyId);
  return companySettingsSchema.parse(company.settings).allowedOrigins;
}

/** `PUT /company/:id/allowed-origins`: replaces the list (empty: our own origin only). */
export async function setAllowedOrigins(
  db: Kysely<Database>,
  options: CompanyChangeOptions,
  allowedOrigins: string[],
): Promise<{ result: string[]; version: number }> {
  return changeCompany(db, options, async (trx) => {
    const company = await requireCompany(trx, options.companyId);
    const before = companySettingsSchema.parse(company.settings).allowedOrigins;
    // An empty list leaves the key out, as a company that never named one has it.
    const settings: CompanySettingsInput = { ...company.settings };
    if (allowedOrigins.length > 0) settings.allowedOrigins = allowedOrigins;
    else delete settings.allowedOrigins;
    await trx
      .updateTable('companies')
      .set({ settings: JSON.stringify(settings) })
      .where('id', '=', options.companyId)
      .execute();
    return {
      action: 'company.allowedOrigins',
      target: `company ${options.companyId}`,
      before: { allowedOrigins: before },
      after: { allowedOrigins },
      result: allowedOrigins,
    };
  });
}
