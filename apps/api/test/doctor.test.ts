import { createHmac, randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doctorReportSchema, envelope } from '@frontdesk/protocol';
import { apiDoctorReport } from '../src/doctor/api-checks.ts';
import { bearer, buildTestApp, loginStaff, type TestApp } from './helper.ts';

const TURN_SECRET = randomBytes(24).toString('base64url');
const TURN_URLS = [
  'turn:turn.test:3478?transport=udp',
  'turn:turn.test:3478?transport=tcp',
  'turns:turn.test:5349?transport=tcp',
];

describe('GET /api/admin/doctor', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      TURN_URLS: TURN_URLS.join(','),
      TURN_SECRET,
      // Nothing answers on the discard port: the public side's checks fail, quickly.
      FRONTDESK_PUBLIC_URL: 'https://127.0.0.1:9',
    });
  });
  afterAll(() => t.close());

  it('answers an admin with the checks, each non-OK one with its fix', async () => {
    const token = await loginStaff(t.app, 'admin@frontdesk.demo');
    const started = Date.now();
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/admin/doctor',
      headers: bearer(token),
    });
    expect(response.statusCode).toBe(200);
    const report = envelope(doctorReportSchema).parse(response.json()).data;
    const byId = new Map(report.checks.map((c) => [c.id, c]));
    expect([...byId.keys()]).toEqual([
      'public-url.dns',
      'public-url.certificate',
      'public-url.redirect',
      'turn.configured',
      'clock',
      'data-dir.disk',
      'data-dir.permissions',
    ]);
    expect(byId.get('turn.configured')).toMatchObject({ status: 'ok' });
    expect(byId.get('public-url.certificate')).toMatchObject({ status: 'fail' });
    for (const check of report.checks) {
      if (check.status !== 'ok') expect(check.fix, check.id).toMatch(/\w/);
    }
    expect(Date.parse(report.checkedAt)).toBeGreaterThanOrEqual(started - 1000);
    expect(report.notChecked.join(' ')).toMatch(/npm run doctor/);
  });

  it('hands the admin short-lived relay credentials minted like a call’s', async () => {
    const token = await loginStaff(t.app, 'admin@frontdesk.demo');
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/admin/doctor',
      headers: bearer(token),
    });
    const { iceServers } = envelope(doctorReportSchema).parse(response.json()).data;
    expect(iceServers).toHaveLength(1);
    const [server] = iceServers;
    expect(server?.urls).toEqual(TURN_URLS);
    const [expiry, name] = (server?.username ?? '').split(':');
    expect(name).toMatch(/^doctor-\d+-agent$/);
    // Minutes, not the hour a call's credentials last (decision 0015).
    expect(Number(expiry) - Date.now() / 1000).toBeLessThanOrEqual(300);
    expect(server?.credential).toBe(
      createHmac('sha1', TURN_SECRET)
        .update(server?.username ?? '')
        .digest('base64'),
    );
  });
});

describe('the API’s self-test without TURN', () => {
  it('warns that no relay is configured and gives no ICE servers', async () => {
    const report = await apiDoctorReport(
      {
        dataDir: tmpdir(),
        publicSide: { url: undefined, natAddresses: [] },
        ice: { stunUrl: null, turnUrls: [], turnSecret: null, turnTtlSeconds: 3600 },
      },
      7,
    );
    expect(report.iceServers).toEqual([]);
    expect(report.checks.find((c) => c.id === 'turn.configured')).toMatchObject({
      status: 'warn',
      fix: expect.stringMatching(/TURN_URLS/),
    });
    // Local mode: no public side to look at.
    expect(report.checks.some((c) => c.id.startsWith('public-url.'))).toBe(false);
  });
});
