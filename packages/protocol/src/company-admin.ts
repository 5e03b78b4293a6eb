import { z } from 'zod';
import { callIdSchema } from './call-id.ts';
import { callMethodSchema, webOriginSchema } from './company.ts';
import { formFieldsSchema } from './forms.ts';
import { geofenceAreaSchema, type GeofenceArea } from './geofence.ts';
import { recordIdSchema, recordIdTextSchema } from './ids.ts';

/**
 * Company admin (issue 16, docs/admin-api.md): what a company's admins send and receive. Every
 * body is strict (an unknown field is refused, named) and as narrow as the guest app renders it;
 * everything stored this way still parses with the public schemas of company.ts.
 */

/** The languages the guest app speaks (apps/guest/src/i18n). */
export const GUEST_LANGUAGES = ['en', 'ar'] as const;

/** Where a file uploaded through `POST /upload/:type` is served (apps/api/src/routes/uploads.ts). */
export const UPLOADED_FILE_URL = /^\/api\/files\/[A-Za-z0-9_-]{22}$/;

/**
 * The pictures the guest app ships (apps/guest/public/brand/), which the demo companies use and
 * an admin may keep or go back to.
 */
export const BUILT_IN_IMAGES = [
  '/brand/favicon.svg',
  '/brand/frontdesk-logo.svg',
  '/brand/frontdesk-watermark.svg',
  '/brand/hold.svg',
  '/brand/rating.svg',
  '/brand/waiting.svg',
] as const;
const builtInImages: ReadonlySet<string> = new Set(BUILT_IN_IMAGES);

const isHttpsUrl = (value: string): boolean => {
  // Written as browsers and the public schema read it: `HTTPS:`, `https:\\host`, `https:host` or
  // a leading space are https: to the URL parser only, and would fail every later read.
  if (!/^https:\/\/[^\s\\]+$/.test(value)) return false;
  try {
    const url = new URL(value);
    // Credentials in a URL only ever serve to mislead (`https://bank@evil.example`).
    return url.protocol === 'https:' && url.hostname !== '' && !url.username && !url.password;
  } catch {
    return false;
  }
};

/**
 * SECURITY: an image or link a company shows is one of our uploads, one of our built-in pictures
 * or an `https:` address;
 * never `http:` (mixed content), `javascript:`, `data:` or a protocol-relative `//host`.
 */
export const adminAssetUrlSchema = z
  .string()
  .max(2048, 'must be 2048 characters or fewer')
  .refine(
    (url) => UPLOADED_FILE_URL.test(url) || builtInImages.has(url) || isHttpsUrl(url),
    'must be an uploaded file (/api/files/…), a built-in picture (/brand/…) or an https: URL',
  );

/** `#rrggbb`, the only colour form the guest app's CSS variables take. */
export const adminColourSchema = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #1a2b3c');

/** A shown text: trimmed, not empty (send `null` to reset it), at most `max` characters. */
const adminText = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty (null resets it)')
    .max(max, `must be ${max} characters or fewer`);

/**
 * A CSS font-family list such as `"Open Sans", Arial, sans-serif`: names, spaces, commas, quotes
 * and hyphens only, so it can never end its declaration or load anything.
 */
const fontFamilySchema = z
  .string()
  .max(200, 'must be 200 characters or fewer')
  .regex(/^[A-Za-z0-9 ,'"-]+$/, 'must be font names separated by commas, e.g. Arial, sans-serif');

const assignmentGroupsSchema = z
  .array(
    z.strictObject({
      id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be letters, digits, _ or -'),
      name: adminText(200),
    }),
  )
  .max(50)
  .refine(
    (groups) => new Set(groups.map((g) => g.id)).size === groups.length,
    'group ids must be unique',
  );

/**
 * The fields `PATCH /company/:id` takes: every presentation field of spec §3 (company.ts
 * `companySettingsSchema`) but `allowedOrigins`, which has its own route, plus `name`. Each one
 * may be `null`, which resets it to the app's default (all but `name`).
 */
export const companySettingsPatchShape = {
  callMethod: callMethodSchema.nullable(),
  callType: z.enum(['userSelect', 'voice', 'video']).nullable(),
  language: z.enum(GUEST_LANGUAGES).nullable(),
  pageDirection: z.enum(['ltr', 'rtl']).nullable(),
  logoImageUrl: adminAssetUrlSchema.nullable(),
  websiteUrl: adminAssetUrlSchema.nullable(),
  websiteTitle: adminText(200).nullable(),
  welcomeMsg: adminText(2000).nullable(),
  waitingMsg: adminText(2000).nullable(),
  outOfHoursMsg: adminText(2000).nullable(),
  backgroundImgUrl: adminAssetUrlSchema.nullable(),
  backgroundColor: adminColourSchema.nullable(),
  waterMarkLogo: adminAssetUrlSchema.nullable(),
  recordCalls: z.boolean().nullable(),
  recordAlertText: adminText(1000).nullable(),
  recordingOptional: z.boolean().nullable(),
  consentRequired: z.boolean().nullable(),
  consentText: adminText(2000).nullable(),
  privacyNoticeUrl: z
    .string()
    .max(2048, 'must be 2048 characters or fewer')
    .refine(isHttpsUrl, 'must be an https: URL')
    .nullable(),
  keepIpAddresses: z.boolean().nullable(),
  flipCamera: z.boolean().nullable(),
  poweredByLogo: z.boolean().nullable(),
  locationOfService: adminText(500).nullable(),
  requestLocation: z.boolean().nullable(),
  outOfZoneMsg: adminText(2000).nullable(),
  showRatingPage: z.boolean().nullable(),
  ratingPageMsg: adminText(2000).nullable(),
  thanksMsg: adminText(2000).nullable(),
  previewScreen: z.boolean().nullable(),
  fontFamily: fontFamilySchema.nullable(),
  faviconUrl: adminAssetUrlSchema.nullable(),
  waitingImageUrl: adminAssetUrlSchema.nullable(),
  textColor: adminColourSchema.nullable(),
  categoryTextColor: adminColourSchema.nullable(),
  categoryBackgroundColor: adminColourSchema.nullable(),
  categoryStyle: z.enum(['buttons', 'list']).nullable(),
  ratingSubmitMsg: adminText(200).nullable(),
  ratingPageImage: adminAssetUrlSchema.nullable(),
  ratingThanksMsg: adminText(2000).nullable(),
  hideTimetable: z.boolean().nullable(),
  holdPageImage: adminAssetUrlSchema.nullable(),
  holdPageText: adminText(2000).nullable(),
  videoOnHoldText: adminText(2000).nullable(),
  audioOnHoldText: adminText(2000).nullable(),
  assignments: z.boolean().nullable(),
  assignmentGroups: assignmentGroupsSchema.nullable(),
  welcomeButtonText: adminText(100).nullable(),
  ratingStyle: z.enum(['stars', 'emojies']).nullable(),
  advanceRating: z.boolean().nullable(),
  streamWatermark: z.enum(['hidden', 'visible']).nullable(),
  roundRobin: z.boolean().nullable(),
  details: adminText(2000).nullable(),
} as const;

/** The settings field names `PATCH /company/:id` takes (all but `name`). */
export type CompanySettingsPatchField = keyof typeof companySettingsPatchShape;

/** `PATCH /company/:id`: any non-empty subset of the fields; `null` resets a setting. */
export const companyUpdateBodySchema = z
  .strictObject({ name: adminText(100), ...companySettingsPatchShape })
  .partial()
  .refine((body) => Object.keys(body).length > 0, 'must name at least one field to change');
export type CompanyUpdateBody = z.infer<typeof companyUpdateBodySchema>;

// Categories

/** `/company/:id/categories/:categoryId`. */
export const categoryParamsSchema = z.strictObject({
  id: recordIdTextSchema,
  categoryId: recordIdTextSchema,
});

/**
 * A category as its admins see it. `agentIds`: the agents who serve it; round robin offers its
 * waiting calls only to them (all available agents when the list is empty; docs/admin-api.md).
 */
export const adminCategorySchema = z.object({
  id: recordIdSchema,
  name: z.string(),
  roomName: z.string(),
  position: z.number().int().nonnegative(),
  textColor: adminColourSchema.nullable(),
  backgroundColor: adminColourSchema.nullable(),
  agentIds: z.array(recordIdSchema),
});
export type AdminCategory = z.infer<typeof adminCategorySchema>;

/**
 * How many live categories a company may have. SECURITY: every guest page (`GET /company/:id`,
 * which anyone may ask) lists them all, each with its waiting time.
 */
export const MAX_CATEGORIES = 100;

const categoryFields = {
  name: adminText(100),
  textColor: adminColourSchema.nullable(),
  backgroundColor: adminColourSchema.nullable(),
  /** Where it shows among the others (0 first); a new one goes last when left out. */
  position: z.number().int().min(0).max(10_000),
  agentIds: z
    .array(recordIdSchema)
    .max(1000)
    .refine((ids) => new Set(ids).size === ids.length, 'must not name an agent twice'),
};

/** `POST /company/:id/categories`. */
export const categoryCreateBodySchema = z.strictObject({
  name: categoryFields.name,
  textColor: categoryFields.textColor.optional(),
  backgroundColor: categoryFields.backgroundColor.optional(),
  position: categoryFields.position.optional(),
  agentIds: categoryFields.agentIds.optional(),
});
export type CategoryCreateBody = z.infer<typeof categoryCreateBodySchema>;

/** `PATCH /company/:id/categories/:categoryId`: any non-empty subset. */
export const categoryUpdateBodySchema = categoryCreateBodySchema
  .partial()
  .refine((body) => Object.keys(body).length > 0, 'must name at least one field to change');
export type CategoryUpdateBody = z.infer<typeof categoryUpdateBodySchema>;

/** `PUT /company/:id/categories/order`: every live category of the company, in its new order. */
export const categoryOrderBodySchema = z.strictObject({
  categoryIds: z
    .array(recordIdSchema)
    .min(1)
    .max(1000)
    .refine((ids) => new Set(ids).size === ids.length, 'must not name a category twice'),
});

// Forms

export const formKindSchema = z.enum(['welcome', 'rating']);

/** `/company/:id/forms/:kind`. */
export const companyFormParamsSchema = z.strictObject({
  id: recordIdTextSchema,
  kind: formKindSchema,
});

/**
 * `PUT /company/:id/forms/:kind`: the whole form. Saving gives it a new id; submissions made
 * against the old one keep it, with the fields they were answered against.
 */
export const formBodySchema = z.strictObject({
  title: adminText(200),
  fields: formFieldsSchema,
});
export type FormBody = z.infer<typeof formBodySchema>;

// Geofence

/** One named zone of the company's service area. */
export const geofenceZoneSchema = z.object({
  id: recordIdSchema,
  name: z.string(),
  area: geofenceAreaSchema,
});
export type GeofenceZone = z.infer<typeof geofenceZoneSchema>;

/**
 * How many positions a company's zones may have in all: a city's outline drawn in detail.
 * SECURITY: every location check, which anyone may send, loads and measures all of them, and
 * each save's audit entry keeps them before and after.
 */
export const MAX_GEOFENCE_POSITIONS = 10_000;

const positionsOf = (area: GeofenceArea): number =>
  (area.type === 'Polygon' ? [area.coordinates] : area.coordinates)
    .flat()
    .reduce((sum, ring) => sum + ring.length, 0);

/** `PUT /company/:id/geofence`: every zone (the list replaces the old one; empty: serve anywhere). */
export const geofenceZonesBodySchema = z.strictObject({
  zones: z
    .array(z.strictObject({ name: adminText(100), area: geofenceAreaSchema }))
    .max(100)
    .refine(
      (zones) =>
        zones.reduce((sum, zone) => sum + positionsOf(zone.area), 0) <= MAX_GEOFENCE_POSITIONS,
      `must have ${MAX_GEOFENCE_POSITIONS} positions or fewer in all`,
    ),
});

/** `POST /company/:id/geofence/check-point`: is this point inside the service area? */
export const geofencePointBodySchema = z.strictObject({
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
});

/**
 * `inside`: whether a guest there may call (the guest's own check agrees). `zones`: the zones
 * holding the point; none at all when the company has no zone, as it then serves everywhere.
 */
export const geofencePointResultSchema = z.object({
  inside: z.boolean(),
  zones: z.array(z.object({ id: recordIdSchema, name: z.string() })),
});

// Block list

/** `/company/:id/blocks/:blockId`. */
export const blockParamsSchema = z.strictObject({
  id: recordIdTextSchema,
  blockId: recordIdTextSchema,
});

/** A browser fingerprint as the block list keeps it (lower case; guest.ts `fingerprintOf`). */
export const blockFingerprintSchema = z
  .string()
  .regex(/^[A-Za-z0-9]{8,64}$/, 'must be 8–64 letters and digits')
  .transform((value) => value.toLowerCase());

/**
 * `POST /company/:id/blocks`: block the guest of one of the company's calls (its fingerprint is
 * looked up by the API) or a fingerprint; exactly one of the two.
 */
export const blockBodySchema = z
  .strictObject({
    callId: callIdSchema.optional(),
    fingerprint: blockFingerprintSchema.optional(),
    reason: adminText(500).optional(),
  })
  .refine((body) => (body.callId === undefined) !== (body.fingerprint === undefined), {
    message: 'name exactly one of callId and fingerprint',
    path: ['callId'],
  });
export type BlockBody = z.infer<typeof blockBodySchema>;

export const guestBlockSchema = z.object({
  id: recordIdSchema,
  fingerprint: z.string(),
  reason: z.string().nullable(),
  /** The call the guest was blocked from, when blocked by call. */
  callId: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type GuestBlock = z.infer<typeof guestBlockSchema>;

// Quota

export const quotaSchema = z.object({
  /** Calls a calendar month may start; `null`: no limit. */
  monthlyCallQuota: z.number().int().nonnegative().nullable(),
  /** Calls started (let through) this month, as call admission counts them. */
  usedThisMonth: z.number().int().nonnegative(),
  /** Where this month began: midnight of the 1st in the company's time zone (UTC without one). */
  monthStartedAt: z.iso.datetime(),
  timeZone: z.string(),
});
export type Quota = z.infer<typeof quotaSchema>;

/** `PUT /company/:id/quota`: `null` lifts the limit. */
export const quotaBodySchema = z.strictObject({
  monthlyCallQuota: z.number().int().min(0).max(100_000_000).nullable(),
});

// Allowed origins

/** `GET|PUT /company/:id/allowed-origins`: the sites that may frame the guest page. */
export const allowedOriginsSchema = z.strictObject({
  allowedOrigins: z
    .array(webOriginSchema)
    .max(50)
    .refine((origins) => new Set(origins).size === origins.length, 'must not name an origin twice'),
});

// Audit log

/** `GET /company/:id/audit?before=&limit=`: newest first; `before` is the last entry's id seen. */
export const auditQuerySchema = z.strictObject({
  before: recordIdTextSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const auditEntrySchema = z.object({
  id: z.number().int().positive(),
  at: z.iso.datetime(),
  /** The member of staff, `null` for the command line or a member since removed. */
  staffId: recordIdSchema.nullable(),
  /** The e-mail (or `command line`) as it was when the change was made. */
  actor: z.string(),
  action: z.string(),
  target: z.string(),
  /** Only the fields the change touched, as they were (`null` for a creation). */
  before: z.unknown(),
  /** …and as they became (`null` for a removal). */
  after: z.unknown(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = z.object({
  entries: z.array(auditEntrySchema),
  /** Pass as `before` for the next (older) page; `null` on the last page. */
  nextBefore: z.number().int().positive().nullable(),
});
