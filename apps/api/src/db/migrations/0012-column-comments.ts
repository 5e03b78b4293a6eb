import { sql, type Kysely } from 'kysely';

/**
 * Decision 0014: what a column means is kept in the database as its comment, which the generated
 * table types (schema.generated.ts) carry as documentation and `\d+` shows. A migration that adds
 * a column comments it the same way.
 */
const COMMENTS: Record<string, string> = {
  'companies.conference_name':
    "The company's chat room (spec §3 conferenceName), unique on the MUC service.",
  'companies.room_password':
    "The join password of the company's chat rooms (`newRoomPassword()`, lowercase). SECURITY: handed only to the company's own guests and staff.",
  'companies.monthly_call_quota': 'Calls a calendar month may start; `null` means no limit.',
  'companies.settings': 'The presentation fields of spec §3, validated by `companySettingsSchema`.',
  'schedule_hours.weekday': 'ISO weekday: 1 = Monday … 7 = Sunday.',
  'schedule_hours.opens': 'Read as `HH:MM:SS`.',
  'schedule_hours.closes': 'Read as `HH:MM:SS`.',
  'guests.username': 'The public name the API made (decision 0006): it proves nothing.',
  'guests.fingerprint':
    "Lower-cased fingerprint of the browser's own name (spec §1): what block lists match.",
  'guests.credential_hash':
    "SHA-256 of the guest's credential; `null` for guests registered before credentials.",
  'guests.inside_zone_at': "When the guest's position last passed the company's geofence check.",
  'staff.email': 'Stored lower-cased; logins compare lower-cased.',
  'staff.password_hash': '`scrypt$N$r$p$salt$hash` (see auth/password.ts).',
  'staff.availability':
    "What the agent's console last reported (`PUT /api/staff/me/availability`).",
  'staff.availability_at': 'When it reported it; `null` before any report.',
  'staff.active':
    'A deactivated member\'s sessions stop at its next request (issue 13 "Sessions").',
  'sessions.staff_id':
    'One session per staff login (guests log in again with their credential instead).',
  'sessions.refresh_hash': "SHA-256 of the login's current refresh token.",
  'sessions.revoked_at': "Set by sign-out: the session's tokens stop working.",
  'call_reports.origin_call_id':
    "The first call of the chain (spec §3 InitialCallID); a call's own id when it began it.",
  'call_reports.previous_call_id': 'The call this one took over from through hold-call.',
  'call_reports.guest_seen_at':
    'When the guest of the waiting call last asked for its place (its queue counts it so).',
  'call_reports.agent_id':
    'The agent or admin who claimed the call (docs/protocol.md step 3); set once.',
  'call_reports.end_reason':
    '`completed` when the call had been claimed, `abandoned` when it had not.',
  'call_reports.transfer_to_staff_id':
    'Where the agent is handing the guest: another agent, or a category (at most one).',
  'call_reports.transfer_to_category_id':
    'Where the agent is handing the guest: a category, or another agent (at most one).',
  'call_reports.room_pin': "The Janus room's join pin, made when the room is first asked for.",
  'call_reports.room_secret':
    "The Janus room's admin secret, made with its pin. SECURITY: edits and destroys the room; never leaves the API.",
  'call_bugs.call_report_id':
    'The report of `call_id` when it exists (a bug may precede a failed report).',
  'uploads.id': "Random and unguessable: the file's URL is its capability (see routes/uploads.ts).",
  'uploads.call_report_id': "A guest's upload: the live call it was sent in (its quota counts it).",
};

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [column, text] of Object.entries(COMMENTS)) {
    await sql`comment on column ${sql.ref(column)} is ${sql.lit(text)}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of Object.keys(COMMENTS)) {
    await sql`comment on column ${sql.ref(column)} is null`.execute(db);
  }
}
