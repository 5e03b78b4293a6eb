import { sql, type Kysely } from 'kysely';
import type { Form, FormBody } from '@frontdesk/protocol';
import { changeCompany, type CompanyChangeOptions } from '../audit/company-changes.ts';
import type { Database, FormKind } from '../db/schema.ts';
import { NotFoundError } from '../domain-errors.ts';
import { findForm, toForm } from './company-repository.ts';

/** The form's current row becomes history: its submissions keep pointing at it. */
async function retireForm(db: Kysely<Database>, formId: number): Promise<void> {
  await db
    .updateTable('forms')
    .set({ retired_at: sql<Date>`now()` })
    .where('id', '=', formId)
    .execute();
}

/**
 * `PUT /company/:id/forms/:kind`: the company's form of `kind` becomes `body`, under a new id.
 * The form it replaces is retired, not changed, so every earlier submission is still read against
 * the fields it answered; guests answer the new form from now on (a welcome form's new id asks
 * returning guests to answer it before their next call).
 */
export async function saveForm(
  db: Kysely<Database>,
  options: CompanyChangeOptions,
  kind: FormKind,
  body: FormBody,
): Promise<{ result: Form; version: number }> {
  const { companyId } = options;
  return changeCompany(db, options, async (trx) => {
    const old = toForm(await findForm(trx, companyId, kind));
    if (old) await retireForm(trx, old.id);
    const row = await trx
      .insertInto('forms')
      .values({
        company_id: companyId,
        kind,
        title: body.title,
        fields: JSON.stringify(body.fields),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const saved = { id: row.id, title: row.title, fields: row.fields };
    return {
      action: 'form.save',
      target: `${kind} form`,
      before: old,
      after: saved,
      result: saved,
    };
  });
}

/** `DELETE /company/:id/forms/:kind`: the company asks no such form any more (404 without one). */
export async function deleteForm(
  db: Kysely<Database>,
  options: CompanyChangeOptions,
  kind: FormKind,
): Promise<{ version: number }> {
  const { companyId } = options;
  return changeCompany(db, options, async (trx) => {
    const old = toForm(await findForm(trx, companyId, kind));
    if (!old) {
      throw new NotFoundError('form_not_found', `Company ${companyId} has no ${kind} form.`);
    }
    await retireForm(trx, old.id);
    return {
      action: 'form.delete',
      target: `${kind} form`,
      before: old,
      after: null,
      result: null,
    };
  });
}
