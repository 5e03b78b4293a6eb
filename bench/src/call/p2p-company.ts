// The p2p call figure's company (issue 23): company 12 as seeded (settings, categories, welcome
// and rating forms), copied into the bench stack's own schema with callMethod 'p2p' and
// recordCalls false (a recorded call always uses the media server, callMethodOf), and one agent
// of its own. The media-server figures keep company 12 and Cy exactly as they are.
import { findDemoLogin, SEEDED_COMPANY } from '@frontdesk/api/seed';
import { connectToSchema } from '../stack.ts';
import type { CallSite } from './call-flow.ts';

const AGENT_EMAIL = 'p2p-agent@bench.example';
/**
 * The agent takes the hash of Cy's password, so no scrypt runs here and the console signs in
 * with the demo password, as the media-server figures' agent does.
 */
const TWIN = findDemoLogin('cy@frontdesk.demo');
const SOURCE = SEEDED_COMPANY.aroundTheClock;

export async function seedP2pCompany(databaseUrl: string, schema: string): Promise<CallSite> {
  const client = await connectToSchema(databaseUrl, schema);
  try {
    await client.query('begin');
    const company = await client.query<{ id: number }>(
      `insert into companies (name, activated, conference_name, room_password, settings)
       select 'Bench P2P', activated, 'bench-p2p', md5(random()::text),
              settings || '{"websiteTitle": "Bench P2P", "callMethod": "p2p", "recordCalls": false}'
       from companies where id = $1
       returning id`,
      [SOURCE],
    );
    const companyId = company.rows[0]?.id;
    if (companyId === undefined) throw new Error(`company ${SOURCE} is not seeded`);
    const categories = await client.query<{ id: number; position: number }>(
      `insert into categories (company_id, name, room_name, position)
       select $1, name, 'bench-p2p-' || lower(name), position from categories where company_id = $2
       returning id, position`,
      [companyId, SOURCE],
    );
    // The guest picks the first, as the media-server figures' guest picks company 12's.
    const categoryId = categories.rows.toSorted((a, b) => a.position - b.position)[0]?.id;
    if (categoryId === undefined) throw new Error(`company ${SOURCE} has no category`);
    await client.query(
      `insert into forms (company_id, kind, title, fields)
       select $1, kind, title, fields from forms where company_id = $2`,
      [companyId, SOURCE],
    );
    const agent = await client.query(
      `insert into staff (company_id, email, name, role, password_hash)
       select $1, $2, 'P2P Agent', 'agent', password_hash from staff where email = $3`,
      [companyId, AGENT_EMAIL, TWIN.email],
    );
    if (agent.rowCount !== 1) throw new Error(`${TWIN.email} is not seeded: is seedDemo off?`);
    await client.query('commit');
    return { companyId, categoryId, agentEmail: AGENT_EMAIL };
  } finally {
    await client.end();
  }
}

/** How many of the company's calls were made with each method, as the API fixed them at add. */
export async function callMethodsAt(
  databaseUrl: string,
  schema: string,
  companyId: number,
): Promise<Record<string, number>> {
  const client = await connectToSchema(databaseUrl, schema);
  try {
    const { rows } = await client.query<{ method: string; calls: number }>(
      `select call_method as method, count(*)::int as calls from call_reports
       where company_id = $1 group by call_method`,
      [companyId],
    );
    return Object.fromEntries(rows.map((row) => [row.method, row.calls]));
  } finally {
    await client.end();
  }
}
