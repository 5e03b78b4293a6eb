import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  envelope,
  fingerprintOf,
  guestRegistrationSchema,
  staffLoginSchema,
} from '@frontdesk/protocol';
import { findDemoLogin, SEEDED_COMPANY } from '../src/db/seed.ts';
import { keyedFingerprints } from '../src/db/migrations/0030-keyed-fingerprints.ts';
import { keyedFingerprint } from '../src/guests/guest-identity.ts';
import {
  addCall,
  bearer,
  buildTestApp,
  guestWithCall,
  loginGuest,
  loginStaff,
  newBrowserUsername,
  type TestApp,
} from './helper.ts';

const COMPANY = SEEDED_COMPANY.demo;

// Issue 20 item 4, decision 0033: what the API keeps of guests is no more than it needs.
describe('privacy: minimisation', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await loginStaff(t.app, 'admin@frontdesk.demo');
  });
  afterAll(() => t.close());

  const key = () => t.config.secrets.guestFingerprint;
  const block = (body: object) =>
    t.app.inject({
      method: 'POST',
      url: `/api/company/${COMPANY}/blocks`,
      headers: bearer(admin),
      body,
    });
  const storedFingerprints = async (username: string) =>
    t.app.db
      .selectFrom('guests')
      .select('fingerprint')
      .where('username', '=', username)
      .executeTakeFirstOrThrow();

  describe('the browser fingerprint', () => {
    it('is stored as its HMAC under the API key, never as it came', async () => {
      const browser = newBrowserUsername('RawPrint0123456789');
      const guest = await loginGuest(t.app, COMPANY, browser);
      const { fingerprint } = await storedFingerprints(guest.username);
      expect(fingerprint).not.toContain('rawprint0123456789');
      expect(fingerprint).toBe(keyedFingerprint(key(), 'rawprint0123456789'));
      expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    });

    it('still recognises a returning browser: blocked by a call, its next registration is blocked', async () => {
      const browser = newBrowserUsername();
      const first = await guestWithCall(t.app, COMPANY, 1);
      const returning = { browser, ...(await loginGuest(t.app, COMPANY, browser)) };
      const { callId } = await addCall(t.app, returning, COMPANY, 1);
      expect((await block({ callId, reason: 'Abusive' })).statusCode).toBe(201);

      // Private mode: no credential kept, so the same browser registers as a new guest.
      const again = await loginGuest(t.app, COMPANY, browser);
      const next = await addCall(t.app, again, COMPANY, 1);
      expect(next.response.json().data.status).toBe('blocked');
      const other = await addCall(t.app, first, COMPANY, 1);
      expect(other.response.json().data.status).toBe('ok');
    });

    it("keys a fingerprint an admin types as the guests' are, so the block matches", async () => {
      const browser = newBrowserUsername('TypedPrint01234567');
      const response = await block({ fingerprint: fingerprintOf(browser).toUpperCase() });
      expect(response.statusCode).toBe(201);
      expect(response.json().data.fingerprint).toBe(keyedFingerprint(key(), 'typedprint01234567'));
      const stored = await t.app.db
        .selectFrom('guest_blocks')
        .select('fingerprint')
        .where('company_id', '=', COMPANY)
        .execute();
      expect(stored.map((row) => row.fingerprint)).not.toContain('typedprint01234567');
      const audit = await t.app.db
        .selectFrom('audit_entries')
        .select('after')
        .where('action', '=', 'block.create')
        .execute();
      expect(JSON.stringify(audit)).not.toContain('typedprint01234567');

      const guest = await loginGuest(t.app, COMPANY, browser);
      const call = await addCall(t.app, guest, COMPANY, 1);
      expect(call.response.json().data.status).toBe('blocked');
    });

    it('migration 0030 replaces the fingerprints already stored by their HMACs, blocks and audit included', async () => {
      // A database of its own: the migration keys every fingerprint it finds, as before 0030.
      const old = await buildTestApp();
      try {
        const { db } = old.app;
        const raw = 'legacyprint0001';
        const { id: guestId } = await db
          .insertInto('guests')
          .values({
            company_id: COMPANY,
            username: 'glegacyguest0000000000000001',
            fingerprint: raw,
            jabberusername: 'legacy-migration-0030',
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await db
          .insertInto('guest_blocks')
          .values({ company_id: COMPANY, fingerprint: raw, reason: 'Before 0030' })
          .execute();
        const { id: auditId } = await db
          .insertInto('audit_entries')
          .values({
            company_id: COMPANY,
            actor: 'command line',
            action: 'block.create',
            target: 'block 1',
            after: JSON.stringify({ fingerprint: raw, reason: 'Before 0030', callId: null }),
          })
          .returning('id')
          .executeTakeFirstOrThrow();

        await keyedFingerprints(old.config.secrets.guestFingerprint).up(db);

        const keyed = keyedFingerprint(old.config.secrets.guestFingerprint, raw);
        const guest = await db
          .selectFrom('guests')
          .select('fingerprint')
          .where('id', '=', guestId)
          .executeTakeFirstOrThrow();
        expect(guest.fingerprint).toBe(keyed);
        const blocks = await db
          .selectFrom('guest_blocks')
          .select('fingerprint')
          .where('reason', '=', 'Before 0030')
          .execute();
        expect(blocks).toEqual([{ fingerprint: keyed }]);
        const audit = await db
          .selectFrom('audit_entries')
          .select('after')
          .where('id', '=', auditId)
          .executeTakeFirstOrThrow();
        expect(audit.after).toEqual({ fingerprint: keyed, reason: 'Before 0030', callId: null });
      } finally {
        await old.close();
      }
    });
  });
  describe("the guests' IP addresses", () => {
    const SDP = [
      'v=0',
      'o=- 4611731400430051336 2 IN IP4 127.0.0.1',
      'c=IN IP4 198.51.100.23',
      'a=candidate:842163049 1 udp 1677729535 198.51.100.23 61234 typ srflx raddr 10.1.2.3 rport 61234',
      'a=candidate:1 1 udp 2122260223 2001:db8::17 50000 typ host',
      'a=candidate:2 1 udp 2122260223 4e8a1d2c-0b9f.local 50001 typ host',
    ].join('\r\n');
    const ADDRESSES = ['198.51.100.23', '10.1.2.3', '2001:db8::17', '127.0.0.1'];

    /** A failed call of a new guest: its SDP sent as the guest page does, and a call bug. */
    async function failedCall() {
      const guest = await guestWithCall(t.app, COMPANY, 1);
      const send = (method: 'PUT' | 'POST', url: string, body: object) =>
        t.app.inject({ method, url: `/api${url}`, body, headers: bearer(guest.token) });
      const updated = await send('PUT', '/call-report/update', {
        call_id: guest.callId,
        success: false,
        guest_local_sdp: SDP,
        guest_remote_sdp: SDP,
      });
      expect(updated.statusCode, updated.body).toBe(200);
      const bug = await send('POST', '/call-bug/by-guest', {
        call_id: guest.callId,
        guest_id: guest.username,
        guest_log: [{ level: 'log', text: 'ICE candidate 198.51.100.23:61234 failed.' }],
        guest_state: { lastPeer: '2001:db8::17' },
        guest_client_info: { userAgent: 'Mozilla/5.0 Chrome/131.0.0.0' },
      });
      expect(bug.statusCode, bug.body).toBe(201);
      const report = await t.app.db
        .selectFrom('call_reports')
        .select(['guest_local_sdp', 'guest_remote_sdp'])
        .where('call_id', '=', guest.callId)
        .executeTakeFirstOrThrow();
      const stored = await t.app.db
        .selectFrom('call_bugs')
        .select(['guest_log', 'guest_state', 'guest_client_info'])
        .where('call_id', '=', guest.callId)
        .executeTakeFirstOrThrow();
      return { report, bug: stored };
    }

    it('are masked in the SDP and call bugs a failed call leaves, unless the company keeps them', async () => {
      const masked = await failedCall();
      const text = JSON.stringify(masked);
      for (const address of ADDRESSES) expect(text, address).not.toContain(address);
      // What diagnoses the failure stays: candidate types, ports, mDNS names, the browser.
      expect(masked.report.guest_local_sdp).toContain(
        'a=candidate:842163049 1 udp 1677729535 [address] 61234 typ srflx raddr [address] rport 61234',
      );
      expect(masked.report.guest_remote_sdp).toContain('4e8a1d2c-0b9f.local 50001 typ host');
      expect(masked.bug.guest_log).toEqual([
        { level: 'log', text: 'ICE candidate [address]:61234 failed.' },
      ]);
      expect(masked.bug.guest_client_info).toEqual({ userAgent: 'Mozilla/5.0 Chrome/131.0.0.0' });

      const turnedOn = await t.app.inject({
        method: 'PATCH',
        url: `/api/company/${COMPANY}`,
        headers: bearer(admin),
        body: { keepIpAddresses: true },
      });
      expect(turnedOn.statusCode, turnedOn.body).toBe(200);
      const kept = await failedCall();
      expect(kept.report.guest_local_sdp).toBe(SDP);
      expect(kept.bug.guest_state).toEqual({ lastPeer: '2001:db8::17' });
    });
  });
});

/** What a guest and an admin type, and where they come from: none of it may reach the log. */
const PERSONAL = {
  address: '203.0.113.77',
  email: 'admin@frontdesk.demo',
  password: findDemoLogin('admin@frontdesk.demo').password,
  fingerprint: 'LoggedPrint0123456789',
  name: 'Zelda Privacyson',
  guestEmail: 'zelda.private@example.org',
  note: 'my card number is in this sentence',
};

/**
 * Signs in, registers a guest, answers the welcome form, starts a call, files a call bug, asks a
 * guest's details.
 */
async function personalRequests(t: TestApp) {
  const send = (method: 'GET' | 'POST', url: string, body?: object, token?: string) =>
    t.app.inject({
      method,
      url: `/api${url}`,
      ...(body ? { body } : {}),
      ...(token ? { headers: bearer(token) } : {}),
      remoteAddress: PERSONAL.address,
    });
  const signIn = await send('POST', '/auth/login', {
    email: PERSONAL.email,
    password: PERSONAL.password,
  });
  const staffToken = envelope(staffLoginSchema).parse(signIn.json()).data.access_token;
  const wrong = await send('POST', '/auth/login', { email: PERSONAL.email, password: 'wrong1234' });
  expect(wrong.statusCode).toBe(401);
  const registered = await send('POST', '/guest-auth/register', {
    username: newBrowserUsername(PERSONAL.fingerprint),
    companyId: COMPANY,
  });
  const { credential, username } = envelope(guestRegistrationSchema).parse(registered.json()).data;
  const login = await send('POST', '/guest-auth/login', { credential, companyId: COMPANY });
  const guestToken: string = login.json().data.access_token;
  const submitted = await send(
    'POST',
    '/form-submission',
    {
      company: COMPANY,
      guestUsername: username,
      serviceType: 'Talk',
      form: 1,
      answers: { name: PERSONAL.name, email: PERSONAL.guestEmail, topic: 'account' },
    },
    guestToken,
  );
  expect(submitted.statusCode, submitted.body).toBe(201);
  const call = await addCall(t.app, { username, token: guestToken }, COMPANY, 1);
  expect(call.response.statusCode, call.response.body).toBe(201);
  const bug = await send(
    'POST',
    '/call-bug/by-guest',
    {
      call_id: `${username}--bugreport0001`,
      guest_id: username,
      guest_log: [{ level: 'log', text: PERSONAL.note }],
      guest_state: {},
      guest_client_info: {},
    },
    guestToken,
  );
  expect(bug.statusCode, bug.body).toBe(201);
  const details = await send(
    'GET',
    `/guest-auth/guestDetails?username=${username}`,
    undefined,
    staffToken,
  );
  expect(details.statusCode, details.body).toBe(200);
  return { username, secrets: [credential, staffToken, guestToken] };
}

describe('privacy: the log', () => {
  it('carries no address, e-mail, password, fingerprint, answer, token or query value by default', async () => {
    const lines: string[] = [];
    const t = await buildTestApp(
      { LOG_LEVEL: 'trace' },
      { logStream: { write: (line) => lines.push(line) } },
    );
    try {
      // The guest's public name stays: call ids begin with it, and the log keeps call ids.
      const { secrets } = await personalRequests(t);
      const log = lines.join('');
      expect(log).toContain('/api/guest-auth/guestDetails?username=[redacted]');
      for (const value of [
        ...Object.values(PERSONAL),
        PERSONAL.fingerprint.toLowerCase(),
        ...secrets,
      ]) {
        expect(log, value).not.toContain(value);
      }
    } finally {
      await t.close();
    }
  });

  it("shows the visitor's address and the query when the operator turns LOG_PERSONAL_DATA on", async () => {
    const lines: string[] = [];
    const t = await buildTestApp(
      { LOG_LEVEL: 'info', LOG_PERSONAL_DATA: 'true' },
      { logStream: { write: (line) => lines.push(line) } },
    );
    try {
      const { username } = await personalRequests(t);
      const log = lines.join('');
      expect(log).toContain(PERSONAL.address);
      expect(log).toContain(`guestDetails?username=${username}`);
    } finally {
      await t.close();
    }
  });
});
