import type { ColumnType, Generated, Selectable } from 'kysely';
import type {
  AgentAvailability,
  Answers,
  CallEndReason,
  CallReportStatus,
  CallSource,
  CallType,
  CompanySettingsInput,
  FormField,
  GeofenceArea,
  ServiceType,
  StaffRole,
  UploadType,
} from '@frontdesk/protocol';

/**
 * The database's tables as Kysely sees them; migrations under ./migrations create them. JSON
 * columns take their type from the protocol schema that validates them, so no shape is written
 * twice; they are written as JSON text (node-postgres would turn arrays into SQL arrays).
 */
export interface Database {
  companies: CompaniesTable;
  categories: CategoriesTable;
  schedules: SchedulesTable;
  schedule_hours: ScheduleHoursTable;
  forms: FormsTable;
  geofence_zones: GeofenceZonesTable;
  guests: GuestsTable;
  guest_blocks: GuestBlocksTable;
  staff: StaffTable;
  call_reports: CallReportsTable;
  call_bugs: CallBugsTable;
  form_submissions: FormSubmissionsTable;
  rating_submissions: RatingSubmissionsTable;
  uploads: UploadsTable;
  sessions: SessionsTable;
}

type Json<T> = ColumnType<T, string, string>;
type CreatedAt = ColumnType<Date, never, never>;

export interface CompaniesTable {
  id: Generated<number>;
  name: string;
  activated: ColumnType<boolean, boolean | undefined, boolean>;
  /** The company's chat room (spec §3 conferenceName), unique on the MUC service. */
  conference_name: string;
  /**
   * The join password of the company's chat rooms (`newRoomPassword()`, lowercase). SECURITY:
   * handed only to the company's own guests and staff.
   */
  room_password: string;
  /** Calls a calendar month may start; `null` means no limit. */
  monthly_call_quota: number | null;
  /** The presentation fields of spec §3, validated by `companySettingsSchema`. */
  settings: Json<CompanySettingsInput>;
  created_at: CreatedAt;
}
export type CompanyRow = Selectable<CompaniesTable>;

export interface CategoriesTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  room_name: string;
  position: number;
}

export interface SchedulesTable {
  company_id: number;
  time_zone: string;
}

export interface ScheduleHoursTable {
  id: Generated<number>;
  company_id: number;
  /** ISO weekday: 1 = Monday … 7 = Sunday. */
  weekday: number;
  /** PostgreSQL `time`, read as `HH:MM:SS`. */
  opens: string;
  closes: string;
}

export type FormKind = 'welcome' | 'rating';

export interface FormsTable {
  id: Generated<number>;
  company_id: number;
  kind: FormKind;
  title: string;
  fields: Json<FormField[]>;
}
export type FormRow = Selectable<FormsTable>;

export interface GeofenceZonesTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  area: Json<GeofenceArea>;
}

export interface GuestsTable {
  id: Generated<number>;
  company_id: number;
  /** The public name the API made (decision 0006): it proves nothing. */
  username: string;
  /** Lower-cased fingerprint of the browser's own name (spec §1): what block lists match. */
  fingerprint: string;
  jabberusername: string;
  /** SHA-256 of the guest's credential; `null` for guests registered before credentials. */
  credential_hash: string | null;
  created_at: CreatedAt;
  last_login_at: ColumnType<Date | null, never, Date>;
  /** When the guest's position last passed the company's geofence check. */
  inside_zone_at: ColumnType<Date | null, never, Date | null>;
}
export type GuestRow = Selectable<GuestsTable>;

export interface GuestBlocksTable {
  company_id: number;
  fingerprint: string;
  reason: string | null;
  created_at: CreatedAt;
}

export interface StaffTable {
  id: Generated<number>;
  company_id: number;
  /** Stored lower-cased; logins compare lower-cased. */
  email: string;
  name: string;
  role: StaffRole;
  /** `scrypt$N$r$p$salt$hash` (see auth/password.ts). */
  password_hash: string;
  /** What the agent's console last reported (`PUT /api/staff/me/availability`). */
  availability: ColumnType<AgentAvailability, AgentAvailability | undefined, AgentAvailability>;
  /** When it reported it; `null` before any report. */
  availability_at: Date | null;
  /** A deactivated member's sessions stop at its next request (issue 13 "Sessions"). */
  active: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: CreatedAt;
}

/** One staff login (guests log in again with their credential instead). */
export interface SessionsTable {
  id: Generated<number>;
  staff_id: number;
  /** SHA-256 of the login's current refresh token. */
  refresh_hash: string;
  expires_at: Date;
  /** Set by sign-out: the session's tokens stop working. */
  revoked_at: Date | null;
  created_at: CreatedAt;
}

export interface CallReportsTable {
  id: Generated<number>;
  company_id: number;
  guest_id: number;
  call_id: string;
  /** The first call of the chain (spec §3 InitialCallID); a call's own id when it began it. */
  origin_call_id: string;
  /** The call this one took over from through hold-call. */
  previous_call_id: string | null;
  category_id: number | null;
  source: CallSource;
  status: CallReportStatus;
  success: boolean | null;
  call_type: CallType | null;
  rating: number | null;
  guest_local_sdp: string | null;
  guest_remote_sdp: string | null;
  created_at: CreatedAt;
  call_initiated_at: Date | null;
  guest_exit_at: Date | null;
  /** When the guest of the waiting call last asked for its place (its queue counts it so). */
  guest_seen_at: Date | null;
  /** The agent or admin who claimed the call (docs/protocol.md step 3); set once. */
  agent_id: number | null;
  answered_at: Date | null;
  ended_at: Date | null;
  /** `completed` when the call had been claimed, `abandoned` when it had not. */
  end_reason: CallEndReason | null;
  notes: string | null;
  /** Where the agent is handing the guest: another agent, or a category (at most one). */
  transfer_to_staff_id: number | null;
  transfer_to_category_id: number | null;
  /** The Janus room's join pin and its admin secret, made when the room is first asked for. */
  room_pin: string | null;
  /** SECURITY: edits and destroys the room; never leaves the API. */
  room_secret: string | null;
}
export type CallReportRow = Selectable<CallReportsTable>;

export interface CallBugsTable {
  id: Generated<number>;
  company_id: number;
  guest_id: number;
  call_id: string;
  /** The report of `call_id` when it exists (a bug may precede a failed report). */
  call_report_id: number | null;
  guest_log: Json<unknown[]>;
  guest_state: Json<Record<string, unknown>>;
  guest_client_info: Json<Record<string, unknown>>;
  created_at: CreatedAt;
}

export interface FormSubmissionsTable {
  id: Generated<number>;
  company_id: number;
  guest_id: number;
  form_id: number;
  service_type: ServiceType;
  answers: Json<Answers>;
  created_at: CreatedAt;
}

export interface RatingSubmissionsTable {
  id: Generated<number>;
  call_report_id: number;
  form_id: number;
  guest_id: number;
  answers: Json<Answers>;
  created_at: CreatedAt;
}

export interface UploadsTable {
  /** Random and unguessable: the file's URL is its capability (see routes/uploads.ts). */
  id: string;
  company_id: number;
  guest_id: number | null;
  staff_id: number | null;
  /** A guest's upload: the live call it was sent in (its quota counts it). */
  call_report_id: number | null;
  type: UploadType;
  content_type: string;
  size_bytes: number;
  original_name: string;
  created_at: CreatedAt;
}
