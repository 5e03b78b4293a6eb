import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import type { Database } from './schema.ts';
import * as companies from './migrations/0001-companies.ts';
import * as people from './migrations/0002-people.ts';
import * as calls from './migrations/0003-calls.ts';
import * as callCoordination from './migrations/0004-call-coordination.ts';
import * as staffAvailability from './migrations/0005-staff-availability.ts';
import * as guestCredentials from './migrations/0006-guest-credentials.ts';
import * as sessions from './migrations/0008-sessions.ts';
import * as uploadCalls from './migrations/0009-upload-calls.ts';
import * as waitingGuestSeen from './migrations/0010-waiting-guest-seen.ts';
import * as guestLocationCheck from './migrations/0011-guest-location-check.ts';
import * as columnComments from './migrations/0012-column-comments.ts';
import * as companyAdmin from './migrations/0013-company-admin.ts';
import * as companyAdminSettings from './migrations/0014-company-admin-settings.ts';
import * as scheduleExceptions from './migrations/0015-schedule-exceptions.ts';
import * as staffInvites from './migrations/0016-staff-invites.ts';
import * as assignmentGroups from './migrations/0017-assignment-groups.ts';
import * as callReporting from './migrations/0018-call-reporting.ts';
import * as reportIndexes from './migrations/0019-report-indexes.ts';
import * as reportConversations from './migrations/0020-report-conversations.ts';
import * as embedIdentity from './migrations/0021-embed-identity.ts';
import * as callWebview from './migrations/0022-call-webview.ts';
import * as callWrapUp from './migrations/0023-call-wrap-up.ts';
import * as cannedReplies from './migrations/0024-canned-replies.ts';
import * as guestContext from './migrations/0026-guest-context.ts';
import * as guestConsent from './migrations/0027-guest-consent.ts';
import * as retention from './migrations/0028-retention.ts';
import * as guestErasure from './migrations/0029-guest-erasure.ts';
import { keyedFingerprints } from './migrations/0030-keyed-fingerprints.ts';
import * as absenceAndAccuracy from './migrations/0032-absence-and-accuracy.ts';
import * as staffUploadCalls from './migrations/0033-staff-upload-calls.ts';
import * as apiReplicas from './migrations/0034-api-replicas.ts';
import * as mediaServers from './migrations/0035-media-servers.ts';
import * as reportRefreshCost from './migrations/0036-report-refresh-cost.ts';
import * as callMethod from './migrations/0037-call-method.ts';

// Listed by hand rather than read from disk so the same list works under tsx and in a bundle.
const migrations: Record<string, Migration> = {
  '0001-companies': companies,
  '0002-people': people,
  '0003-calls': calls,
  '0004-call-coordination': callCoordination,
  '0005-staff-availability': staffAvailability,
  '0006-guest-credentials': guestCredentials,
  '0008-sessions': sessions,
  '0009-upload-calls': uploadCalls,
  '0010-waiting-guest-seen': waitingGuestSeen,
  '0011-guest-location-check': guestLocationCheck,
  '0012-column-comments': columnComments,
  '0013-company-admin': companyAdmin,
  '0014-company-admin-settings': companyAdminSettings,
  '0015-schedule-exceptions': scheduleExceptions,
  '0016-staff-invites': staffInvites,
  '0017-assignment-groups': assignmentGroups,
  '0018-call-reporting': callReporting,
  '0019-report-indexes': reportIndexes,
  '0020-report-conversations': reportConversations,
  '0021-embed-identity': embedIdentity,
  '0022-call-webview': callWebview,
  '0023-call-wrap-up': callWrapUp,
  '0024-canned-replies': cannedReplies,
  '0026-guest-context': guestContext,
  '0027-guest-consent': guestConsent,
  '0028-retention': retention,
  '0029-guest-erasure': guestErasure,
  '0032-absence-and-accuracy': absenceAndAccuracy,
  '0033-staff-upload-calls': staffUploadCalls,
  '0034-api-replicas': apiReplicas,
  '0035-media-servers': mediaServers,
  '0036-report-refresh-cost': reportRefreshCost,
  '0037-call-method': callMethod,
};

/** What migrations need from the API's configuration: 0030 hashes with the fingerprint key. */
export type MigrationKeys = { fingerprintKey: string };

/** Applies every pending migration, each in its own transaction; throws on the first failure. */
export async function migrateToLatest(
  db: Kysely<Database>,
  { fingerprintKey }: MigrationKeys,
): Promise<string[]> {
  // Kysely looks for its bookkeeping tables by name in every schema unless told which one; name
  // the connection's own, or another schema's tables (e.g. another test run's) would be taken.
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const migrator = new Migrator({
    db,
    provider: {
      getMigrations: async () => ({
        ...migrations,
        '0030-keyed-fingerprints': keyedFingerprints(fingerprintKey),
      }),
    },
    // Numbers are reserved ahead for work done side by side (0026 landed before 0024): a
    // database that ran a later one still takes an earlier newcomer. They touch separate tables.
    allowUnorderedMigrations: true,
    ...(rows[0] ? { migrationTableSchema: rows[0].schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${String(error)}`, { cause: error });
  }
  return (results ?? []).map((r) => r.migrationName);
}
