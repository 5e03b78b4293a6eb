import { z } from 'zod';
import { DEFAULT_COMPANY_ID } from './constants.ts';

/** A database id (PostgreSQL `serial`) in a JSON body. */
export const recordIdSchema = z.number().int().positive().max(2_147_483_647);

/** The same id where it arrives as text: a path parameter, a query or a multipart field. */
export const recordIdTextSchema = z
  .string()
  .regex(/^\d{1,10}$/, 'must be a positive whole number')
  .transform(Number)
  .pipe(recordIdSchema);

/**
 * spec §1: the company a guest page is for, from its `?company=` value; anything unreadable
 * means the default company. The guest app and the page the API serves agree through this.
 */
export function pageCompanyId(value: unknown): number {
  const company = recordIdTextSchema.safeParse(value ?? '');
  return company.success ? company.data : DEFAULT_COMPANY_ID;
}
