import { z } from 'zod';
import { formSchema } from './forms.ts';
import { recordIdSchema, recordIdTextSchema } from './ids.ts';

/**
 * SECURITY: company URLs end up in `src`/`href` attributes, so only our own paths and http(s)
 * are allowed (never `javascript:` or `data:`).
 */
const assetUrl = z
  .string()
  .max(2048)
  .refine((url) => /^(\/[^/]|https?:\/\/)/.test(url), 'must be a path or an http(s) URL');
const optionalUrl = assetUrl.nullable().default(null);
/**
 * An origin (`https://host[:port]` or `http://…`) exactly as a browser writes it in `Origin`
 * and `event.origin`: scheme, host and port only, lower case, no path or trailing slash.
 */
export const webOriginSchema = z
  .string()
  .max(300)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (
        (url.protocol === 'https:' || url.protocol === 'http:') &&
        url.origin === value &&
        // A plain host name or address: no wildcards, which CSP would read as "any subdomain".
        /^([a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/.test(url.hostname)
      );
    } catch {
      return false;
    }
  }, 'must be an origin such as https://shop.example or http://localhost:8000 (no path)');
const optionalText = z.string().max(2000).nullable().default(null);
const colour = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #1a2b3c')
  .nullable()
  .default(null);

/**
 * One of a company's assignment groups (spec §3 `assignmentGroups`, decision 0019): a kind of
 * guest the company routes apart, e.g. "Spanish speakers", named by an id the admin chooses.
 */
export const assignmentGroupSchema = z.object({
  id: z.string().min(1).max(100),
  name: z.string().min(1).max(200),
});
export type AssignmentGroup = z.infer<typeof assignmentGroupSchema>;

/**
 * spec §3 `callMethod`: whether a call's media goes through the media server (Janus) or straight
 * between the guest's and the agent's browsers (`p2p`, issue 23). A call fixes its own method
 * when it is made (`callMethodOf`); the company's setting is only what new calls start from.
 */
export const callMethodSchema = z.enum(['mediaServer', 'p2p']);
export type CallMethod = z.infer<typeof callMethodSchema>;

/**
 * The method a new call uses (decision 0045): a recorded call goes through the media server
 * whatever the company chose — only the server can record it, and a recording the company asked
 * for is never silently lost.
 */
export function callMethodOf(company: { callMethod: CallMethod }, recorded: boolean): CallMethod {
  return recorded ? 'mediaServer' : company.callMethod;
}

/**
 * The settings of spec §3 "Company details" that shape the guest's screens, each with its
 * default (spec §3 gives callMethod, callType, recordCalls, pageDirection and streamWatermark;
 * the others are ours). `null` means "the app's own default".
 */
export const companySettingsSchema = z.object({
  callMethod: callMethodSchema.default('mediaServer'),
  callType: z.enum(['userSelect', 'voice', 'video']).default('userSelect'),
  /** A BCP 47 language tag such as `en` or `ar`. */
  language: z
    .string()
    .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/)
    .default('en'),
  pageDirection: z.enum(['ltr', 'rtl']).default('ltr'),
  logoImageUrl: optionalUrl,
  websiteUrl: optionalUrl,
  websiteTitle: optionalText,
  welcomeMsg: optionalText,
  waitingMsg: optionalText,
  outOfHoursMsg: optionalText,
  backgroundImgUrl: optionalUrl,
  backgroundColor: colour,
  waterMarkLogo: optionalUrl,
  recordCalls: z.boolean().default(true),
  recordAlertText: optionalText,
  /**
   * Whether the guest may call without the call being recorded (only with `recordCalls`):
   * the selection page then offers the choice (decision 0030).
   */
  recordingOptional: z.boolean().default(false),
  /**
   * Whether the guest must accept `consentText` before anything about them is processed or
   * stored: fingerprint, guest row, location, call (decision 0030). The API holds it too.
   */
  consentRequired: z.boolean().default(false),
  /** The company's words asking for consent; `null`: the app's own sentence. */
  consentText: optionalText,
  /** The company's privacy notice, linked from the consent step: an https: URL. */
  privacyNoticeUrl: z
    .string()
    .max(2048)
    .refine((url) => /^https:\/\/[^\s\\]+$/.test(url), 'must be an https: URL')
    .nullable()
    .default(null),
  /**
   * Whether the IP addresses in guests' call diagnostics (the SDP a failed call sends, a call-bug
   * report's browser log) are kept; otherwise the API stores them masked (decision 0033).
   */
  keepIpAddresses: z.boolean().default(false),
  flipCamera: z.boolean().default(false),
  /** Whether the "powered by Frontdesk" logo shows. */
  poweredByLogo: z.boolean().default(true),
  /** Words for the area the company serves, shown beside outOfZoneMsg. */
  locationOfService: optionalText,
  requestLocation: z.boolean().default(false),
  outOfZoneMsg: optionalText,
  showRatingPage: z.boolean().default(true),
  ratingPageMsg: optionalText,
  thanksMsg: optionalText,
  previewScreen: z.boolean().default(true),
  fontFamily: z.string().max(200).nullable().default(null),
  faviconUrl: optionalUrl,
  waitingImageUrl: optionalUrl,
  textColor: colour,
  categoryTextColor: colour,
  categoryBackgroundColor: colour,
  categoryStyle: z.enum(['buttons', 'list']).default('buttons'),
  ratingSubmitMsg: optionalText,
  ratingPageImage: optionalUrl,
  ratingThanksMsg: optionalText,
  hideTimetable: z.boolean().default(false),
  holdPageImage: optionalUrl,
  holdPageText: optionalText,
  videoOnHoldText: optionalText,
  audioOnHoldText: optionalText,
  /**
   * Whether the guest picks one of `assignmentGroups` for the call; round robin then offers it to
   * the group's members first (decision 0019).
   */
  assignments: z.boolean().default(false),
  assignmentGroups: z.array(assignmentGroupSchema).default([]),
  welcomeButtonText: optionalText,
  /** spec §3 spells the second style "emojies"; it is the wire value. */
  ratingStyle: z.enum(['stars', 'emojies']).default('stars'),
  advanceRating: z.boolean().default(false),
  streamWatermark: z.enum(['hidden', 'visible']).default('hidden'),
  /** spec §4: with round-robin the call goes to whichever agent takes it first. */
  roundRobin: z.boolean().default(true),
  details: optionalText,
  /**
   * SECURITY: the sites that may show the guest page in a frame (CSP `frame-ancestors`) and
   * that the embedded widget tells its stages to. Empty: the page's own origin only.
   */
  allowedOrigins: z.array(webOriginSchema).max(50).default([]),
});
export type CompanySettings = z.infer<typeof companySettingsSchema>;
export type CompanySettingsInput = z.input<typeof companySettingsSchema>;

/** `HH:MM`, 24-hour clock. */
export const clockTimeSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM');

/**
 * An IANA time zone name such as `Europe/London` that this runtime knows. Offsets such as
 * `+01:00`, which newer runtimes also accept, are refused: they know no daylight saving.
 */
export const timeZoneSchema = z.string().refine((zone) => {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}, 'must be an IANA time zone such as Europe/London');

/** `YYYY-MM-DD`, a day of the (Gregorian) calendar: `2026-02-30` is refused. */
export const calendarDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD')
  .refine((date) => {
    const [year = 0, month = 0, day = 0] = date.split('-').map(Number);
    const utc = new Date(Date.UTC(year, month - 1, day));
    return utc.getUTCMonth() === month - 1 && utc.getUTCDate() === day;
  }, 'must be a day of the calendar');

/** How many openings one day of a timetable may have (a weekday, or a date's exception). */
export const MAX_OPENINGS_A_DAY = 10;

/**
 * One opening of a day, by the company's clock: from `opens` (inclusive) to `closes` (exclusive).
 * A `closes` at or before `opens` runs into the next day: `22:00`–`02:00` closes at 02:00 the next
 * morning, `18:00`–`00:00` at midnight, and `00:00`–`00:00` is the whole day.
 */
export const openingIntervalSchema = z.strictObject({
  opens: clockTimeSchema,
  closes: clockTimeSchema,
});
export type OpeningInterval = z.infer<typeof openingIntervalSchema>;

/** An opening on one weekday (ISO: 1 = Monday … 7 = Sunday), possibly into the next day. */
export const openingHoursSchema = openingIntervalSchema.extend({
  weekday: z.number().int().min(1).max(7),
});
export type OpeningHours = z.infer<typeof openingHoursSchema>;

/**
 * A date that keeps other hours than its weekday's (a holiday, Christmas Eve's short day): on
 * that date only `hours` open, and none when it is empty (closed all day). A night of the day
 * before that would run into the date ends at its midnight.
 */
export const scheduleExceptionSchema = z.strictObject({
  date: calendarDateSchema,
  /** What the date is, shown to guests: `Christmas Eve`. */
  label: z.string().trim().min(1).max(100).nullable().default(null),
  hours: z.array(openingIntervalSchema).max(MAX_OPENINGS_A_DAY),
});
export type ScheduleException = z.infer<typeof scheduleExceptionSchema>;

/**
 * How many days ahead the public timetable lists its exceptions: enough for the guest to work
 * out the next opening, few enough to keep the page's first answer small.
 */
export const UPCOMING_EXCEPTION_DAYS = 60;

/**
 * A company's timetable in its own time zone: the week's openings and the dates that differ.
 * `openNow` is the server's answer at the time of the request (spec §2 stage "schedule"); no
 * openings at all means always closed. Publicly, `exceptions` holds those from yesterday to
 * {@link UPCOMING_EXCEPTION_DAYS} ahead (yesterday's night may still run).
 */
export const scheduleSchema = z.object({
  timeZone: timeZoneSchema,
  hours: z.array(openingHoursSchema),
  exceptions: z.array(scheduleExceptionSchema).default([]),
  openNow: z.boolean(),
});
export type Schedule = z.infer<typeof scheduleSchema>;

/** The wait a category shows before any of its calls has been answered. */
export const DEFAULT_AVERAGE_WAIT_MS = 60_000;

export const categorySchema = z.object({
  id: recordIdSchema,
  name: z.string(),
  /** The category's chat room (a MUC localpart on `host`). */
  roomName: z.string(),
  /** The category's own colours (#rrggbb); `null`: the company's category colours. */
  textColor: z.string().nullable().default(null),
  backgroundColor: z.string().nullable().default(null),
  /**
   * How long recent guests of the category waited for an agent: the mean over its last 20
   * answered calls, or {@link DEFAULT_AVERAGE_WAIT_MS} before it has any (the queue estimate).
   */
  averageWaitMs: z.number().int().nonnegative().default(DEFAULT_AVERAGE_WAIT_MS),
});
export type Category = z.infer<typeof categorySchema>;

/** `GET /company/:id`: every field of spec §3 "Company details". Public: holds no secret. */
export const companyDetailsSchema = companySettingsSchema.extend({
  id: recordIdSchema,
  /**
   * Counts the company's changes; the response's ETag carries it, and an admin's edit names it
   * (`If-Match`) so that it never overwrites a change it has not seen.
   */
  version: z.number().int().positive(),
  name: z.string(),
  activated: z.boolean(),
  /** The company's own chat room (a MUC localpart on `host`). */
  conferenceName: z.string(),
  /** The chat server's MUC service, e.g. `conference.frontdesk.localhost`. */
  host: z.string(),
  /** `null` when the company keeps no timetable: it is then always open. */
  schedule: scheduleSchema.nullable(),
  categories: z.array(categorySchema),
  welcomeForm: formSchema.nullable(),
  welcomeFormTitle: z.string().nullable(),
  ratingForm: formSchema.nullable(),
});
export type CompanyDetails = z.infer<typeof companyDetailsSchema>;

/** `GET /company/:id`: the company's id, as the path carries it. */
export const companyParamsSchema = z.strictObject({ id: recordIdTextSchema });
