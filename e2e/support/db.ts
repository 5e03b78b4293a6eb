import pg from 'pg';

/**
 * Reads what a journey stored, in the run's own schema (e2e/support/global-setup.ts). Journeys
 * assert on rows, not only on screens.
 */
export async function queryRows<Row extends Record<string, unknown>>(
  sql: string,
  params: unknown[] = [],
): Promise<Row[]> {
  const schema = process.env.FRONTDESK_DATABASE_SCHEMA;
  if (!schema) throw new Error('FRONTDESK_DATABASE_SCHEMA is unset: run through the e2e config');
  const client = new pg.Client({
    connectionString: process.env.FRONTDESK_DATABASE_URL,
    options: `-c search_path=${schema}`,
  });
  await client.connect();
  try {
    return (await client.query<Row>(sql, params)).rows;
  } finally {
    await client.end();
  }
}
