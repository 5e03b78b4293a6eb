import type { Selectable } from 'kysely';
import type { DB } from './schema.generated.ts';

/**
 * The database's tables as Kysely sees them, generated from the migrated database (decision
 * 0014): change a migration, then `npm run db:types -w apps/api`. This file only names what the
 * code imports.
 */
export type Database = DB;

export type { FormKind } from './column-types.ts';

export type StaffTable = DB['staff'];
export type UploadsTable = DB['uploads'];

export type CompanyRow = Selectable<DB['companies']>;
export type FormRow = Selectable<DB['forms']>;
export type GuestRow = Selectable<DB['guests']>;
export type CallReportRow = Selectable<DB['call_reports']>;
