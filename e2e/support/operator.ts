import { createOperator, openDatabase } from '@frontdesk/api/operations';

/** A platform operator made as `npm run create-operator` makes one, in the run's database. */
export async function makeOperator(email: string) {
  const url = process.env.FRONTDESK_DATABASE_URL;
  if (!url) throw new Error('FRONTDESK_DATABASE_URL is unset: run through the e2e config');
  const db = await openDatabase(url, process.env.FRONTDESK_DATABASE_SCHEMA);
  try {
    return await createOperator(db, { email, name: 'Olga Operator' });
  } finally {
    await db.destroy();
  }
}
