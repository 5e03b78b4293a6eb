import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import {
  callReportAddedSchema,
  claimedCallSchema,
  companyDetailsSchema,
  DEFAULT_COMPANY_ID,
  envelope,
  formatBrowserUsername,
  formatCallId,
  guestLoginSchema,
  guestRegistrationSchema,
  staffLoginSchema,
  minimalAnswers,
  REFRESH_COOKIE,
  type CallReportAddBody,
  type CompanySettings,
  type StaffLogin,
} from '@frontdesk/protocol';
import { buildApp, type AppDependencies } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import type { Database } from '../src/db/schema.ts';
import { jobSchemaOf } from '../src/recordings/recording-jobs.ts';
import { findDemoLogin, seedDemo } from '../src/db/seed.ts';

/** The server the integration tests use: `DATABASE_URL`, else the machine's `test` database. */
export const testDatabaseUrl =
  process.env.DATABASE_URL ?? 'postgresql://postgres@/test?host=/var/run/postgresql';

export type TestApp = { app: FastifyInstance; config: Config; close: () => Promise<void> };

/**
 * The demo data with the demo company open at every hour: most tests make calls to it, and the
 * API refuses a call out of hours, so they would otherwise pass or fail with the hour they run
 * at. Tests of the timetable itself seed with `seedDemo`.
 */
export async function seedDemoOpenAllHours(db: Kysely<Database>, config: Config): Promise<void> {
  await seedDemo(db, { fingerprintKey: config.secrets.guestFingerprint });
  await db.deleteFrom('schedule_hours').where('company_id', '=', DEFAULT_COMPANY_ID).execute();
  await db.deleteFrom('schedules').where('company_id', '=', DEFAULT_COMPANY_ID).execute();
}

/**
 * Builds the API on a fresh schema of the test database, migrated and seeded, so each test file
 * sees its own rows; `close` drops the schema (and its job queue's). `env` overrides
 * configuration per test, `recordingJobs` the merge job's settings, `logStream` takes the log
 * (with `LOG_LEVEL` in `env`).
 */
export async function buildTestApp(
  env: Record<string, string> = {},
  {
    seed = seedDemoOpenAllHours,
    recordingJobs,
    logStream,
  }: {
    seed?: (db: Kysely<Database>, config: Config) => Promise<void>;
    recordingJobs?: AppDependencies['recordingJobs'];
    logStream?: AppDependencies['logStream'];
  } = {},
): Promise<TestApp> {
  const schema = `test_${randomBytes(6).toString('hex')}`;
  // Uploads and error reports of the run land in a data folder of its own, removed by `close`.
  const config = loadConfig({
    DATABASE_URL: testDatabaseUrl,
    DATABASE_SCHEMA: schema,
    XMPP_JWT_SECRET: randomBytes(32).toString('base64url'),
    JANUS_TOKEN_SECRET: randomBytes(24).toString('base64url'),
    JANUS_ADMIN_KEY: randomBytes(24).toString('base64url'),
    API_TOKEN_SECRET: randomBytes(32).toString('base64url'),
    GUEST_FINGERPRINT_KEY: randomBytes(32).toString('base64url'),
    LOG_LEVEL: 'silent',
    // No chat server unless a test starts one: nothing listens on the discard port.
    XMPP_ADMIN_URL: 'http://127.0.0.1:9/api',
    FRONTDESK_DATA_DIR: `/tmp/frontdesk-test-${schema}`,
    ...env,
  });
  const db = await openDatabase(config.databaseUrl, schema);
  await migrateToLatest(db, { fingerprintKey: config.secrets.guestFingerprint });
  await seed(db, config);
  const app = await buildApp({ config, db, recordingJobs, logStream });
  await app.ready();
  return {
    app,
    config,
    close: async () => {
      await app.close();
      await sql`drop schema ${sql.id(schema)} cascade`.execute(db);
      await sql`drop schema if exists ${sql.id(jobSchemaOf(schema))} cascade`.execute(db);
      await db.destroy();
      await rm(config.dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Another API process on the schema of `t`, as a second replica would run: its own caches,
 * company change feed and job workers, the same rows and queue. `config` overrides `t`'s;
 * close it before `t`.
 */
export async function buildReplica(
  t: TestApp,
  config: Partial<Config> = {},
  recordingJobs?: AppDependencies['recordingJobs'],
): Promise<{ app: FastifyInstance; close: () => Promise<void> }> {
  const replicaConfig = { ...t.config, ...config };
  const db = await openDatabase(replicaConfig.databaseUrl, replicaConfig.databaseSchema);
  const app = await buildApp({ config: replicaConfig, db, recordingJobs });
  await app.ready();
  return {
    app,
    close: async () => {
      await app.close();
      await db.destroy();
    },
  };
}

/** A fresh, valid browser name (spec §1: fingerprint, separator, suffix), for registration. */
export function newBrowserUsername(fingerprint = `fp${randomBytes(8).toString('hex')}`): string {
  return formatBrowserUsername(fingerprint, randomBytes(8).toString('hex'));
}

let callSuffixes = 0;
/** A call id of the guest's that no other test of the file uses (spec §3). */
export const newCallId = (guest: { username: string }) =>
  formatCallId(guest.username, `c${(callSuffixes += 1)}`);

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A JSON call to `/api/<path>`, with the bearer token when one is given. */
export const callApi = (
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body: object | undefined,
  token?: string,
) =>
  app.inject({
    method,
    url: `/api/${path}`,
    ...(body ? { body } : {}),
    ...(token ? { headers: bearer(token) } : {}),
  });

/** The refresh token a sign-in or a refresh set as its cookie (decision 0024). */
export function refreshCookieOf(response: { cookies: { name: string; value: string }[] }) {
  const cookie = response.cookies.find((c) => c.name === REFRESH_COOKIE.name);
  if (!cookie) throw new Error('no refresh cookie was set');
  return cookie.value;
}

/** `POST /api/auth/refresh` as the console sends it: `{}` with the refresh cookie, if any. */
export const refreshSession = (app: FastifyInstance, refreshToken?: string) =>
  app.inject({
    method: 'POST',
    url: `/api${REFRESH_COOKIE.path.slice('/api'.length)}`,
    body: {},
    remoteAddress: someAddress(),
    ...(refreshToken ? { cookies: { [REFRESH_COOKIE.name]: refreshToken } } : {}),
  });

/**
 * A made-up client address, so the set-up logins of a test file never add up to the per-address
 * rate limits that the tests of those limits exercise.
 */
const someAddress = () => `10.${[...randomBytes(3)].join('.')}`;

/** A position in central London: inside every seeded company's service area. */
export const INSIDE_EVERY_ZONE = { lat: 51.5074, lng: -0.1278 };

/**
 * What the guest page has a guest do before it may call, when the company asks for it: answer
 * the welcome form, and pass the geofence check from {@link INSIDE_EVERY_ZONE}.
 */
export async function passCompanyChecks(
  app: FastifyInstance,
  companyId: number,
  guest: { username: string; token: string },
  remoteAddress = someAddress(),
): Promise<void> {
  const details = await app.inject({ method: 'GET', url: `/api/company/${companyId}` });
  const company = envelope(companyDetailsSchema).parse(details.json()).data;
  const send = (method: 'POST' | 'PUT', path: string, body: object) =>
    app.inject({ method, url: `/api/${path}`, body, headers: bearer(guest.token), remoteAddress });
  if (company.welcomeForm) {
    const submitted = await send('POST', 'form-submission', {
      company: companyId,
      guestUsername: guest.username,
      serviceType: 'Talk',
      form: company.welcomeForm.id,
      answers: minimalAnswers(company.welcomeForm),
    });
    if (submitted.statusCode !== 201) throw new Error(`form-submission: ${submitted.body}`);
  }
  if (company.requestLocation) {
    const checked = await send('PUT', 'geo-fence/check', {
      ...INSIDE_EVERY_ZONE,
      companyID: companyId,
    });
    if (checked.statusCode !== 200) throw new Error(`geo-fence/check: ${checked.body}`);
  }
}

/**
 * Registers a guest of `companyId` from the browser named `browserUsername` and logs it in, then
 * (unless `checks` is false) passes the company's checks as the guest page would; returns its
 * public username and access token.
 */
export async function loginGuest(
  app: FastifyInstance,
  companyId: number,
  browserUsername = newBrowserUsername(),
  // `consent`: registers with the guest's consent (decision 0030).
  { checks = true, consent = false }: { checks?: boolean; consent?: boolean } = {},
): Promise<{ username: string; token: string }> {
  const remoteAddress = someAddress();
  const registered = await app.inject({
    method: 'POST',
    url: '/api/guest-auth/register',
    body: { username: browserUsername, companyId, ...(consent ? { consent } : {}) },
    remoteAddress,
  });
  if (registered.statusCode !== 201) throw new Error(`register: ${registered.body}`);
  const { username, credential } = guestRegistrationSchema.parse(registered.json().data);
  const login = await app.inject({
    method: 'POST',
    url: '/api/guest-auth/login',
    body: { credential, companyId },
    remoteAddress,
  });
  if (login.statusCode !== 200) throw new Error(`login: ${login.body}`);
  const guest = { username, token: guestLoginSchema.parse(login.json().data).access_token };
  if (checks) await passCompanyChecks(app, companyId, guest, remoteAddress);
  return guest;
}

/**
 * A new guest of `company` whose call in `categoryId` was let through: its name, token, call id
 * and what the API handed it for the chat and media servers.
 */
export async function guestWithCall(app: FastifyInstance, company: number, categoryId: number) {
  const guest = await loginGuest(app, company);
  const { callId, response: added } = await addCall(app, guest, company, categoryId);
  if (added.statusCode !== 201) throw new Error(`call-report/add: ${added.body}`);
  const { services } = envelope(callReportAddedSchema).parse(added.json()).data;
  if (!services) throw new Error('no services for a call let through');
  return { ...guest, callId, services };
}

/**
 * `guest` reports a new call at `company` (in `categoryId` when given) with `call-report/add`, as
 * the guest page does, adding `extra` to the body (e.g. `recording: 'declined'`); answers the
 * call's id and the API's answer, whatever it is.
 */
export async function addCall(
  app: FastifyInstance,
  guest: TestGuest,
  company: number,
  categoryId?: number,
  extra: Partial<CallReportAddBody> = {},
) {
  const callId = newCallId(guest);
  const body = {
    call_id: callId,
    company,
    source: 'site',
    ...(categoryId === undefined ? {} : { category_id: categoryId }),
    ...extra,
  };
  return { callId, response: await callApi(app, 'POST', 'call-report/add', body, guest.token) };
}

/**
 * The agent signed in with `token` takes `guest`'s waiting call in `categoryId` with
 * `calls/claim`, as the console does; answers what the claim handed the agent.
 */
export async function claimCall(
  app: FastifyInstance,
  token: string,
  guest: TestGuest,
  categoryId: number,
) {
  const claimed = await callApi(
    app,
    'POST',
    'calls/claim',
    { guestUsername: guest.username, categoryId },
    token,
  );
  if (claimed.statusCode !== 200) throw new Error(`calls/claim: ${claimed.body}`);
  return envelope(claimedCallSchema).parse(claimed.json()).data;
}

/**
 * Merges `patch` into the settings of company `companyId`, straight in its row, and has the API
 * forget its cached details, so its next request reads them (no admin route needed).
 */
export async function setCompanySettings(
  app: FastifyInstance,
  companyId: number,
  patch: Partial<CompanySettings>,
): Promise<void> {
  await sql`update companies set settings = settings || ${JSON.stringify(patch)}::jsonb
    where id = ${companyId}`.execute(app.db);
  app.companyDetails.forget(companyId);
}

/** A new guest of `company` whose call in `categoryId` agent Ada has answered ({@link markAnswered}). */
export async function answeredCall(app: FastifyInstance, company: number, categoryId: number) {
  const call = await guestWithCall(app, company, categoryId);
  await markAnswered(app, call.callId);
  return call;
}

/**
 * What answering leaves in a call's report, by agent Ada, written straight to the row: the claim
 * route also opens the call's Janus room, which tests of the row's state can do without.
 */
export async function markAnswered(app: FastifyInstance, callId: string): Promise<void> {
  const agentId = await staffIdOf(app, 'ada@frontdesk.demo');
  await app.db
    .updateTable('call_reports')
    .set({ agent_id: agentId, answered_at: new Date() })
    .where('call_id', '=', callId)
    .execute();
}

/** The id of the member of staff whose e-mail is `email` (a seeded one, or one a test added). */
export async function staffIdOf(app: FastifyInstance, email: string): Promise<number> {
  const { id } = await app.db
    .selectFrom('staff')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return id;
}

/** Logs a seeded agent or admin in; returns the API's whole answer (token, user, chat). */
export async function staffLogin(app: FastifyInstance, email: string): Promise<StaffLogin> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    body: { email, password: findDemoLogin(email).password },
    remoteAddress: someAddress(),
  });
  if (response.statusCode !== 200) throw new Error(`staff login: ${response.body}`);
  return staffLoginSchema.parse(response.json().data);
}

/** Logs a seeded agent or admin in; returns the access token. */
export async function loginStaff(app: FastifyInstance, email: string): Promise<string> {
  return (await staffLogin(app, email)).access_token;
}

export type TestGuest = { username: string; token: string };

/**
 * The cast of the permission tests: two guests of the demo company, one of its agents, and an
 * agent of another company.
 */
export async function loginActors(app: FastifyInstance) {
  const [guest, otherGuest, agent, foreignAgent] = await Promise.all([
    loginGuest(app, DEFAULT_COMPANY_ID),
    loginGuest(app, DEFAULT_COMPANY_ID),
    loginStaff(app, 'ada@frontdesk.demo'),
    loginStaff(app, 'cy@frontdesk.demo'),
  ]);
  return { guest, otherGuest, agent, foreignAgent };
}

export type Part =
  | { name: string; value: string }
  | { name: string; filename: string; type: string; content: Uint8Array };

/** A multipart/form-data body as a browser's FormData sends it. */
export function multipart(parts: Part[]) {
  const boundary = '----frontdesk-test-boundary';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const head =
      'value' in part
        ? `Content-Disposition: form-data; name="${part.name}"\r\n\r\n`
        : `Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type}\r\n\r\n`;
    chunks.push(Buffer.from(`--${boundary}\r\n${head}`));
    chunks.push(Buffer.from('value' in part ? part.value : part.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}
