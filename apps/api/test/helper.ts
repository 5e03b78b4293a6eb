import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import {
  DEFAULT_COMPANY_ID,
  formatCallId,
  formatGuestUsername,
  guestLoginSchema,
  staffLoginSchema,
} from '@frontdesk/protocol';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { DEMO_LOGINS, seedDemo } from '../src/db/seed.ts';

/** The server the integration tests use: `DATABASE_URL`, else the machine's `test` database. */
export const testDatabaseUrl =
  process.env.DATABASE_URL ?? 'postgresql://postgres@/test?host=/var/run/postgresql';

export type TestApp = { app: FastifyInstance; config: Config; close: () => Promise<void> };

/**
 * Builds the API on a fresh schema of the test database, migrated and seeded, so each test file
 * sees its own rows; `close` drops the schema. `env` overrides configuration per test.
 */
export async function buildTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const schema = `test_${randomBytes(6).toString('hex')}`;
  // Uploads and error reports of the run land in a data folder of its own, removed by `close`.
  const config = loadConfig({
    DATABASE_URL: testDatabaseUrl,
    DATABASE_SCHEMA: schema,
    XMPP_JWT_SECRET: randomBytes(32).toString('base64url'),
    JANUS_TOKEN_SECRET: randomBytes(24).toString('base64url'),
    JANUS_ADMIN_KEY: randomBytes(24).toString('base64url'),
    API_TOKEN_SECRET: randomBytes(32).toString('base64url'),
    LOG_LEVEL: 'silent',
    FRONTDESK_DATA_DIR: `/tmp/frontdesk-test-${schema}`,
    ...env,
  });
  const db = await openDatabase(config.databaseUrl, schema);
  await migrateToLatest(db);
  await seedDemo(db);
  const app = await buildApp({ config, db });
  await app.ready();
  return {
    app,
    config,
    close: async () => {
      await app.close();
      await sql`drop schema ${sql.id(schema)} cascade`.execute(db);
      await db.destroy();
      await rm(config.dataDir, { recursive: true, force: true });
    },
  };
}

/** A fresh, valid guest username (spec §1: fingerprint, separator, suffix). */
export function newGuestUsername(fingerprint = `fp${randomBytes(8).toString('hex')}`): string {
  return formatGuestUsername(fingerprint, randomBytes(8).toString('hex'));
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

/**
 * A made-up client address, so the set-up logins of a test file never add up to the per-address
 * rate limits that the tests of those limits exercise.
 */
const someAddress = () => `10.${[...randomBytes(3)].join('.')}`;

/** Registers and logs in a guest of `companyId`; returns its username and access token. */
export async function loginGuest(
  app: FastifyInstance,
  companyId: number,
  username = newGuestUsername(),
): Promise<{ username: string; token: string }> {
  const request = {
    method: 'POST',
    body: { username, companyId },
    remoteAddress: someAddress(),
  } as const;
  const registered = await app.inject({ ...request, url: '/api/guest-auth/register' });
  if (registered.statusCode !== 201) throw new Error(`register: ${registered.body}`);
  const login = await app.inject({ ...request, url: '/api/guest-auth/login' });
  if (login.statusCode !== 200) throw new Error(`login: ${login.body}`);
  return { username, token: guestLoginSchema.parse(login.json().data).access_token };
}

/** Logs a seeded agent or admin in; returns the access token. */
export async function loginStaff(app: FastifyInstance, email: string): Promise<string> {
  const login = DEMO_LOGINS.find((l) => l.email === email);
  if (!login) throw new Error(`no demo login ${email}`);
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    body: { email, password: login.password },
    remoteAddress: someAddress(),
  });
  if (response.statusCode !== 200) throw new Error(`staff login: ${response.body}`);
  return staffLoginSchema.parse(response.json().data).access_token;
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
