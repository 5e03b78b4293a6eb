import { fileURLToPath } from 'node:url';
import { Kysely } from 'kysely';
import {
  PostgresDialect,
  RawExpressionNode,
  serializeFromMetadata,
  type PostgresDB,
} from 'kysely-codegen';
import { format, resolveConfig } from 'prettier';

/** The checked-in output; `npm run db:types -w apps/api` rewrites it. */
export const SCHEMA_TYPES_FILE = fileURLToPath(new URL('./schema.generated.ts', import.meta.url));

/**
 * The columns whose TypeScript type says more than PostgreSQL can: a jsonb column takes the
 * protocol type that validates it, a text column the union its check constraint allows. Each
 * names the type of a non-null value; the database still decides `| null` and whether an insert
 * may leave the column out. `JSONColumnType` (Kysely's) has JSON written as text, because
 * node-postgres would send a JavaScript array as a SQL array.
 */
const COLUMN_TYPES: Record<string, string> = {
  'companies.settings': 'JSONColumnType<CompanySettingsInput>',
  'forms.kind': 'FormKind',
  'forms.fields': 'JSONColumnType<FormField[]>',
  'geofence_zones.area': 'JSONColumnType<GeofenceArea>',
  'guests.last_login_at': 'StampedLater',
  'guests.inside_zone_at': 'StampedLater',
  'staff.role': 'StaffRole',
  'staff.availability': 'AgentAvailability',
  'call_reports.source': 'CallSource',
  'call_reports.status': 'CallReportStatus',
  'call_reports.call_type': 'CallType',
  'call_reports.end_reason': 'CallEndReason',
  'call_reports.call_method': 'CallMethod',
  'call_bugs.guest_log': 'JSONColumnType<unknown[]>',
  'call_bugs.guest_state': 'JSONColumnType<Record<string, unknown>>',
  'call_bugs.guest_client_info': 'JSONColumnType<Record<string, unknown>>',
  'form_submissions.service_type': 'ServiceType',
  'form_submissions.answers': 'JSONColumnType<Answers>',
  'rating_submissions.answers': 'JSONColumnType<Answers>',
  'uploads.type': 'UploadType',
  'call_reports.ended_by': 'CallEndedBy',
  'call_events.kind': 'CallEventKind',
  'call_quality.role': 'CallSide',
  'call_quality.local_candidate_type': 'IceCandidateType',
  'call_quality.remote_candidate_type': 'IceCandidateType',
  'call_recordings.status': 'RecordingStatus',
};
// And every `created_at` is `CreatedAt`: the database's clock, so no table needs an entry.

const IMPORTS: Record<string, string> = {
  ...Object.fromEntries(
    [
      'AgentAvailability',
      'Answers',
      'CallEndReason',
      'CallEndedBy',
      'CallEventKind',
      'CallMethod',
      'CallSide',
      'IceCandidateType',
      'RecordingStatus',
      'CallReportStatus',
      'CallSource',
      'CallType',
      'CompanySettingsInput',
      'FormField',
      'GeofenceArea',
      'ServiceType',
      'StaffRole',
      'UploadType',
    ].map((name) => [name, '@frontdesk/protocol']),
  ),
  ...Object.fromEntries(
    ['CreatedAt', 'FormKind', 'StampedLater'].map((name) => [name, './column-types.ts']),
  ),
};

/**
 * The Kysely table types of the migrated database at `url` (its `public` schema), as the text of
 * schema.generated.ts. Throws when an entry of COLUMN_TYPES names a column the database lacks.
 */
export async function generateSchemaTypes(url: string): Promise<string> {
  const dialect = new PostgresDialect();
  const db = new Kysely<PostgresDB>({
    dialect: await dialect.createKyselyDialect({ connectionString: url }),
  });
  const metadata = await dialect.introspector
    .introspect({ db, includePattern: 'public.*' })
    .finally(() => db.destroy());

  const overrides: Record<string, RawExpressionNode> = {};
  const unmatched = new Set(Object.keys(COLUMN_TYPES));
  for (const table of metadata.tables) {
    for (const column of table.columns) {
      const path = `${table.name}.${column.name}`;
      unmatched.delete(path);
      const type = COLUMN_TYPES[path] ?? (column.name === 'created_at' ? 'CreatedAt' : undefined);
      if (!type) continue;
      // An override replaces the generator's whole type, `Generated` included, so a column with a
      // default gets it back here (the generator's `Generated` keeps a ColumnType's write rules).
      // Given as a node rather than a string, it still gets `| null` from the column.
      const expression = column.hasDefaultValue ? `Generated<${type}>` : type;
      overrides[path] = new RawExpressionNode(expression);
    }
  }
  if (unmatched.size > 0) {
    throw new Error(`COLUMN_TYPES names columns the database lacks: ${[...unmatched].join(', ')}`);
  }

  const text = serializeFromMetadata({
    dialect,
    metadata,
    customImports: IMPORTS,
    overrides: { columns: overrides },
    // node-postgres reads timestamptz as a Date; the generator's default would also accept text.
    typeMapping: { timestamptz: 'Date' },
  });
  const options = await resolveConfig(SCHEMA_TYPES_FILE);
  return format(text, { ...options, filepath: SCHEMA_TYPES_FILE });
}
