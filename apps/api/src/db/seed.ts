import { sql, type Insertable, type Kysely } from 'kysely';
import {
  DEFAULT_COMPANY_ID,
  type CompanySettingsInput,
  type FormField,
  localDate,
  type GeofenceArea,
  type OpeningHours,
  type StaffRole,
  type TimetableData,
} from '@frontdesk/protocol';
import { newRoomPassword } from '@frontdesk/chat/server';
import { hashPassword } from '../auth/password.ts';
import { replaceTimetable } from '../companies/schedule-repository.ts';
import type { Config } from '../config.ts';
import { keyedFingerprint } from '../guests/guest-identity.ts';
import type { Database, FormKind } from './schema.ts';

/**
 * The companies of the demo and of the tests, by stable id. Besides the demo company (spec §1:
 * id 5), each one leads a guest to one refusal stage of spec §2, so tests and the end-to-end
 * suite can reach every stage without setting anything up:
 */
export const SEEDED_COMPANY = {
  /**
   * "Frontdesk Demo": three categories, Mon–Fri 08:00–20:00 London but Christmas Day, both forms,
   * a zone.
   */
  demo: DEFAULT_COMPANY_ID,
  /** Stage `inactive`: `activated` is false. */
  inactive: 6,
  /** Stage `outOfQuota`: a monthly quota of 0 calls, so `call-report/add` answers outOfQuota. */
  outOfQuota: 7,
  /** Stage `blocked`: the fingerprint {@link BLOCKED_FINGERPRINT} is on its block list. */
  blockList: 8,
  /** Stage `schedule`: a timetable without opening hours, so it is always closed. */
  alwaysClosed: 9,
  /** Arabic, right to left, with an Arabic welcome form; no timetable (always open). */
  arabic: 10,
  /** Stage `outofzone`: asks for the location and serves Greater London only. */
  geofenced: 11,
  /** The demo company's twin without a timetable: a call can be made at any hour (e2e). */
  aroundTheClock: 12,
  /** Voice calls only (callType voice), rated with emojis; always open. */
  voiceLine: 13,
} as const;

/**
 * The one other site the demo's round-the-clock company lets frame its guest page and hear its
 * widget's events: the "company site" the end-to-end suite serves on loopback.
 */
export const DEMO_SHOP_ORIGIN = 'http://127.0.0.1:4180';

/** A guest whose browser name (spec §1) starts with this fingerprint is blocked at company 8. */
export const BLOCKED_FINGERPRINT = 'blockedvisitor0001';

const DEMO_PASSWORD = 'frontdesk-demo';

type DemoLogin = {
  email: string;
  password: string;
  name: string;
  role: StaffRole;
  companyId: number;
};

const demoLogin = (email: string, name: string, role: StaffRole, companyId: number): DemoLogin => ({
  email,
  password: DEMO_PASSWORD,
  name,
  role,
  companyId,
});

/**
 * The demo's people (`npm start` prints them): each demo company's agents and its admin. All
 * share one password: this is a demo.
 */
export const DEMO_LOGINS: readonly DemoLogin[] = [
  demoLogin('ada@frontdesk.demo', 'Ada Agent', 'agent', SEEDED_COMPANY.demo),
  demoLogin('bo@frontdesk.demo', 'Bo Agent', 'agent', SEEDED_COMPANY.demo),
  demoLogin('admin@frontdesk.demo', 'Ann Admin', 'admin', SEEDED_COMPANY.demo),
  demoLogin('cy@frontdesk.demo', 'Cy Agent', 'agent', SEEDED_COMPANY.aroundTheClock),
  demoLogin('di@frontdesk.demo', 'Di Agent', 'agent', SEEDED_COMPANY.aroundTheClock),
  demoLogin('zoe@frontdesk.demo', 'Zoe Admin', 'admin', SEEDED_COMPANY.aroundTheClock),
  demoLogin('ali@frontdesk.demo', 'علي', 'agent', SEEDED_COMPANY.arabic),
  demoLogin('noor@frontdesk.demo', 'نور', 'admin', SEEDED_COMPANY.arabic),
  demoLogin('dee@frontdesk.demo', 'Dee Agent', 'agent', SEEDED_COMPANY.voiceLine),
  demoLogin('val@frontdesk.demo', 'Val Admin', 'admin', SEEDED_COMPANY.voiceLine),
];

/** The demo login of `email`; a mistyped one throws rather than signing in with no password. */
export function findDemoLogin(email: string): DemoLogin {
  const login = DEMO_LOGINS.find((l) => l.email === email);
  if (!login) throw new Error(`no demo login ${email}`);
  return login;
}

type SeedForm = { id: number; kind: FormKind; title: string; fields: FormField[] };
type SeedCompany = {
  id: number;
  name: string;
  activated: boolean;
  conferenceName: string;
  monthlyCallQuota: number | null;
  settings: CompanySettingsInput;
  categories: { id: number; name: string; roomName: string }[];
  schedule?: TimetableData;
  forms: SeedForm[];
  zones: { id: number; name: string; area: GeofenceArea }[];
  blockedFingerprints: string[];
};

const welcomeFields: FormField[] = [
  { type: 'text', name: 'name', label: 'Your name', required: true, maxLength: 100 },
  { type: 'email', name: 'email', label: 'E-mail', required: true, maxLength: 320 },
  {
    type: 'select',
    name: 'topic',
    label: 'What is it about?',
    required: true,
    options: [
      { value: 'new-order', label: 'A new order' },
      { value: 'existing-order', label: 'An existing order' },
      { value: 'account', label: 'My account' },
      { value: 'other', label: 'Something else' },
    ],
  },
  {
    type: 'textarea',
    name: 'message',
    label: 'Anything we should know?',
    required: false,
    maxLength: 2000,
  },
];

/**
 * The questions of the demo's rating form that every rated call answers: stars, and whether the
 * problem was solved (the reports benchmark's rating form asks these too).
 */
export const DEMO_RATING_QUESTIONS: readonly FormField[] = [
  { type: 'rating', name: 'score', label: 'How was your call?', required: true },
  {
    type: 'select',
    name: 'resolved',
    label: 'Did we solve your problem?',
    required: true,
    options: [
      { value: 'yes', label: 'Yes' },
      { value: 'partly', label: 'Partly' },
      { value: 'no', label: 'No' },
    ],
  },
];

const ratingFields: FormField[] = [
  ...DEMO_RATING_QUESTIONS,
  { type: 'textarea', name: 'comments', label: 'Comments', required: false, maxLength: 2000 },
];

const demoSettings: CompanySettingsInput = {
  callMethod: 'mediaServer',
  callType: 'userSelect',
  language: 'en',
  pageDirection: 'ltr',
  logoImageUrl: '/brand/frontdesk-logo.svg',
  websiteUrl: 'https://frontdesk.example',
  websiteTitle: 'Frontdesk Demo',
  welcomeMsg: 'Welcome to Frontdesk Demo. Talk to one of our team face to face.',
  waitingMsg: 'Thanks for waiting. An agent will be with you shortly.',
  outOfHoursMsg: 'We are closed right now. We are open Monday to Friday, 8:00 to 20:00 (London).',
  backgroundImgUrl: null,
  backgroundColor: '#f5f7fa',
  waterMarkLogo: '/brand/frontdesk-watermark.svg',
  recordCalls: true,
  recordAlertText: 'This call may be recorded for quality and training.',
  flipCamera: true,
  poweredByLogo: true,
  locationOfService: 'Europe',
  requestLocation: false,
  outOfZoneMsg: 'Sorry, we can only serve visitors in Europe.',
  showRatingPage: true,
  ratingPageMsg: 'How did we do?',
  thanksMsg: 'Thank you for calling Frontdesk Demo.',
  previewScreen: true,
  fontFamily: 'Inter, system-ui, sans-serif',
  faviconUrl: '/brand/favicon.svg',
  waitingImageUrl: '/brand/waiting.svg',
  textColor: '#1f2933',
  categoryTextColor: '#ffffff',
  categoryBackgroundColor: '#2563eb',
  categoryStyle: 'buttons',
  ratingSubmitMsg: 'Send rating',
  ratingPageImage: '/brand/rating.svg',
  ratingThanksMsg: 'Thanks for your feedback!',
  hideTimetable: false,
  holdPageImage: '/brand/hold.svg',
  holdPageText: 'Your call is on hold. Please stay on the line.',
  videoOnHoldText: 'Video paused while you are on hold.',
  audioOnHoldText: 'Audio paused while you are on hold.',
  assignments: false,
  assignmentGroups: [],
  welcomeButtonText: 'Start',
  ratingStyle: 'stars',
  advanceRating: true,
  streamWatermark: 'hidden',
  roundRobin: true,
  details: 'A demonstration company for trying Frontdesk end to end.',
};

const weekdaysEightToEight: OpeningHours[] = [1, 2, 3, 4, 5].map((weekday) => ({
  weekday,
  opens: '08:00',
  closes: '20:00',
}));

/** The coming 25 December in London (today's on the day): the demo timetable's holiday. */
function nextChristmasDay(now: Date): string {
  const today = localDate(now, 'Europe/London');
  const thisYear = `${today.slice(0, 4)}-12-25`;
  return today <= thisYear ? thisYear : `${Number(today.slice(0, 4)) + 1}-12-25`;
}

/** A box from south-west to north-east corner, as a closed GeoJSON ring (longitude first). */
function box(west: number, south: number, east: number, north: number): GeofenceArea {
  const ring: [number, number][] = [
    [west, south],
    [east, south],
    [east, north],
    [west, north],
    [west, south],
  ];
  return { type: 'Polygon', coordinates: [ring] };
}

/** A plain company with one category and no forms: the base of the refusal companies. */
function simpleCompany(
  id: number,
  name: string,
  conferenceName: string,
  categoryId: number,
  overrides: Partial<SeedCompany> = {},
): SeedCompany {
  return {
    id,
    name,
    activated: true,
    conferenceName,
    monthlyCallQuota: null,
    settings: { welcomeMsg: `Welcome to ${name}.` },
    categories: [{ id: categoryId, name: 'General', roomName: `${conferenceName}-general` }],
    forms: [],
    zones: [],
    blockedFingerprints: [],
    ...overrides,
  };
}

const COMPANIES: SeedCompany[] = [
  {
    id: SEEDED_COMPANY.demo,
    name: 'Frontdesk Demo',
    activated: true,
    conferenceName: 'frontdesk-demo',
    monthlyCallQuota: null,
    settings: demoSettings,
    categories: [
      { id: 1, name: 'Sales', roomName: 'frontdesk-demo-sales' },
      { id: 2, name: 'Support', roomName: 'frontdesk-demo-support' },
      { id: 3, name: 'Billing', roomName: 'frontdesk-demo-billing' },
    ],
    schedule: {
      timeZone: 'Europe/London',
      hours: weekdaysEightToEight,
      exceptions: [{ date: nextChristmasDay(new Date()), label: 'Christmas Day', hours: [] }],
    },
    forms: [
      { id: 1, kind: 'welcome', title: 'Before we start', fields: welcomeFields },
      { id: 2, kind: 'rating', title: 'Rate your call', fields: ratingFields },
    ],
    zones: [{ id: 1, name: 'Europe', area: box(-25, 34, 45, 72) }],
    blockedFingerprints: [],
  },
  simpleCompany(SEEDED_COMPANY.inactive, 'Dormant Ltd', 'dormant', 4, { activated: false }),
  simpleCompany(SEEDED_COMPANY.outOfQuota, 'Quota Spent Co', 'quota-spent', 5, {
    monthlyCallQuota: 0,
  }),
  simpleCompany(SEEDED_COMPANY.blockList, 'Guarded Inc', 'guarded', 6, {
    blockedFingerprints: [BLOCKED_FINGERPRINT],
  }),
  simpleCompany(SEEDED_COMPANY.alwaysClosed, 'Night Owl Services', 'night-owl', 7, {
    settings: { outOfHoursMsg: 'We are closed. Please come back another time.' },
    schedule: { timeZone: 'UTC', hours: [], exceptions: [] },
  }),
  simpleCompany(SEEDED_COMPANY.arabic, 'مكتب الاستقبال التجريبي', 'arabic-demo', 8, {
    settings: {
      language: 'ar',
      pageDirection: 'rtl',
      fontFamily: 'Noto Naskh Arabic, serif',
      welcomeMsg: 'مرحبًا بك. تحدث مع أحد موظفينا وجهًا لوجه.',
      waitingMsg: 'شكرًا لانتظارك. سيكون أحد موظفينا معك قريبًا.',
      thanksMsg: 'شكرًا لاتصالك بنا.',
      welcomeButtonText: 'ابدأ',
      ratingStyle: 'emojies',
    },
    categories: [
      { id: 8, name: 'المبيعات', roomName: 'arabic-demo-sales' },
      { id: 13, name: 'الدعم', roomName: 'arabic-demo-support' },
    ],
    forms: [
      {
        id: 3,
        kind: 'welcome',
        title: 'قبل أن نبدأ',
        fields: [
          { type: 'text', name: 'name', label: 'الاسم', required: true, maxLength: 100 },
          {
            type: 'email',
            name: 'email',
            label: 'البريد الإلكتروني',
            required: true,
            maxLength: 320,
          },
        ],
      },
    ],
  }),
  simpleCompany(SEEDED_COMPANY.geofenced, 'London Locals', 'london-locals', 9, {
    settings: {
      requestLocation: true,
      locationOfService: 'Greater London',
      outOfZoneMsg: 'Sorry, we only serve visitors in Greater London.',
    },
    zones: [{ id: 2, name: 'Greater London', area: box(-0.51, 51.28, 0.34, 51.69) }],
  }),
  {
    id: SEEDED_COMPANY.aroundTheClock,
    name: 'Frontdesk Around the Clock',
    activated: true,
    conferenceName: 'around-the-clock',
    monthlyCallQuota: null,
    settings: {
      ...demoSettings,
      websiteTitle: 'Frontdesk Around the Clock',
      outOfHoursMsg: null,
      allowedOrigins: [DEMO_SHOP_ORIGIN],
    },
    categories: [
      { id: 10, name: 'Sales', roomName: 'around-the-clock-sales' },
      { id: 11, name: 'Support', roomName: 'around-the-clock-support' },
      { id: 12, name: 'Billing', roomName: 'around-the-clock-billing' },
    ],
    forms: [
      { id: 4, kind: 'welcome', title: 'Before we start', fields: welcomeFields },
      { id: 5, kind: 'rating', title: 'Rate your call', fields: ratingFields },
    ],
    zones: [],
    blockedFingerprints: [],
  },
  simpleCompany(SEEDED_COMPANY.voiceLine, 'Frontdesk Voice Line', 'voice-line', 14, {
    settings: {
      welcomeMsg: 'Welcome to Frontdesk Voice Line. Talk to us, no camera needed.',
      callType: 'voice',
      ratingStyle: 'emojies',
      ratingPageMsg: 'How did the call feel?',
    },
  }),
];

async function seedCompany(
  trx: Kysely<Database>,
  company: SeedCompany,
  fingerprintKey: string,
): Promise<void> {
  const inserted = await trx
    .insertInto('companies')
    .values({
      id: company.id,
      name: company.name,
      activated: company.activated,
      conference_name: company.conferenceName,
      room_password: newRoomPassword(),
      monthly_call_quota: company.monthlyCallQuota,
      settings: JSON.stringify(company.settings),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  // An existing company is left exactly as it is: an admin may have changed it since.
  if (!inserted) return;

  if (company.categories.length > 0) {
    await trx
      .insertInto('categories')
      .values(
        company.categories.map((c, position) => ({
          id: c.id,
          company_id: company.id,
          name: c.name,
          room_name: c.roomName,
          position,
        })),
      )
      .execute();
  }
  if (company.schedule) await replaceTimetable(trx, company.id, company.schedule);
  for (const form of company.forms) {
    await trx
      .insertInto('forms')
      .values({ ...form, company_id: company.id, fields: JSON.stringify(form.fields) })
      .execute();
  }
  for (const zone of company.zones) {
    await trx
      .insertInto('geofence_zones')
      .values({ ...zone, company_id: company.id, area: JSON.stringify(zone.area) })
      .execute();
  }
  for (const fingerprint of company.blockedFingerprints) {
    await trx
      .insertInto('guest_blocks')
      .values({
        company_id: company.id,
        fingerprint: keyedFingerprint(fingerprintKey, fingerprint),
        reason: 'Seeded for the blocked stage.',
      })
      .execute();
  }
}

/**
 * SECURITY: whether the demo logins (public e-mails, one published password, an admin among
 * them) may be created: only when the API listens on a loopback address, where nobody else can
 * use them, or when `FRONTDESK_DEMO=1` says a reachable demo is meant.
 */
export function demoLoginsAllowed(host: string, env: NodeJS.ProcessEnv): boolean {
  if (env.FRONTDESK_DEMO === '1') return true;
  const name = host.replace(/^\[|\]$/g, '').toLowerCase();
  return name === 'localhost' || name === '::1' || /^127(\.\d{1,3}){3}$/.test(name);
}

/** What the API seeds as it starts: nothing unless `SEED_DEMO=true`; logins as allowed above. */
export async function seedOnStart(
  db: Kysely<Database>,
  { host, secrets }: Pick<Config, 'host' | 'secrets'>,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  if (env.SEED_DEMO !== 'true') return;
  const logins = demoLoginsAllowed(host, env);
  if (!logins) {
    console.warn('Demo logins not created: HOST is not loopback (FRONTDESK_DEMO=1 allows them).');
  }
  await seedDemo(db, { fingerprintKey: secrets.guestFingerprint, logins });
}

/** Hashes made in this process, by e-mail: scrypt at OWASP's cost takes ~0.8 s and 128 MiB. */
const demoHashes = new Map<string, string>();

async function demoLoginHash(login: DemoLogin): Promise<string> {
  const kept = demoHashes.get(login.email);
  if (kept) return kept;
  const hash = await hashPassword(login.password);
  demoHashes.set(login.email, hash);
  return hash;
}

/**
 * Inserts the seeded companies and, unless `logins` is false, the demo logins once; a company
 * or login that already exists is left alone, so running it again (every `npm start`) changes
 * nothing. `fingerprintKey` keys the block list's fingerprints as the API's (decision 0033).
 */
export async function seedDemo(
  db: Kysely<Database>,
  { fingerprintKey, logins = true }: { fingerprintKey: string; logins?: boolean },
): Promise<void> {
  // Each login gets its own salt, as every account does; one at a time, as each takes 128 MiB.
  const staff: Insertable<Database['staff']>[] = [];
  for (const login of logins ? DEMO_LOGINS : []) {
    staff.push({
      company_id: login.companyId,
      email: login.email,
      name: login.name,
      role: login.role,
      password_hash: await demoLoginHash(login),
    });
  }
  await db.transaction().execute(async (trx) => {
    for (const company of COMPANIES) await seedCompany(trx, company, fingerprintKey);
    if (staff.length > 0) {
      await trx
        .insertInto('staff')
        .values(staff)
        .onConflict((oc) => oc.column('email').doNothing())
        .execute();
    }
    // Explicit ids leave the serials behind; move them past the seeded rows so new ones never collide.
    for (const table of ['companies', 'categories', 'forms', 'geofence_zones'] as const) {
      await sql`select setval(pg_get_serial_sequence(${table}, 'id'), (select max(id) from ${sql.table(table)}))`.execute(
        trx,
      );
    }
  });
}
