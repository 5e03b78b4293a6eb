import { z } from 'zod';

/** A database id (PostgreSQL `serial`) in a JSON body. */
export const recordIdSchema = z.number().int().positive().max(2_147_483_647);

/** The same id where it arrives as text: a path parameter, a query or a multipart field. */
export const recordIdTextSchema = z
  .string()
  .regex(/^\d{1,10}$/, 'must be a positive whole number')
  .transform(Number)
  .pipe(recordIdSchema);
