import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '@frontdesk/protocol';
import { loadConfig } from '../../src/config.ts';
import { bearer, buildTestApp, type TestApp } from '../helper.ts';

const OUTSIDER = '203.0.113.9';

/**
 * Builds an app with `env` around the enclosing `describe`; answers `GET /metrics` as the
 * client at `remoteAddress` sends it.
 */
function metricsReader(env: Record<string, string> = {}) {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(env);
  });
  afterAll(() => t.close());
  return (remoteAddress: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });
}

/**
 * Attack: an outsider reads `/metrics` to learn how busy the service is, how many guests wait,
 * which dependency is down and how the process is doing, as reconnaissance or to time an attack.
 * Only loopback, the configured addresses and a scraper with the metrics token may read it.
 */
describe('attack: reading the metrics from outside', () => {
  describe('without a metrics token configured', () => {
    const read = metricsReader();

    it('refuses a request from another address with 403, and tells it nothing', async () => {
      const response = await read(OUTSIDER);
      expect(response.statusCode).toBe(403);
      expect(apiErrorSchema.parse(response.json()).error.code).toBe('forbidden');
      expect(response.body).not.toContain('frontdesk_');
    });

    it('refuses it whatever bearer token it sends', async () => {
      expect((await read(OUTSIDER, bearer('x'.repeat(40)))).statusCode).toBe(403);
    });

    it('serves loopback, IPv4 and IPv6 (the local scraper)', async () => {
      for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
        expect((await read(address)).statusCode, address).toBe(200);
      }
    });

    it('refuses a request relayed by a reverse proxy on this machine (it comes from loopback)', async () => {
      // Without TRUST_PROXY the API cannot tell whom the proxy relays: it is not loopback's own.
      for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip']) {
        const relayed = await read('127.0.0.1', {
          [header]: header === 'forwarded' ? `for=${OUTSIDER}` : OUTSIDER,
        });
        expect(relayed.statusCode, header).toBe(403);
      }
    });
  });

  describe('with a metrics token and an allowed range', () => {
    const token = randomBytes(32).toString('base64url');
    const read = metricsReader({
      METRICS_TOKEN: token,
      METRICS_ALLOWED_ADDRESSES: '10.1.0.0/16, 192.0.2.7',
      // One proxy in front of the API: its X-Forwarded-For names the visitor.
      TRUST_PROXY: '1',
    });

    it('asks an outsider without the token for it (401, WWW-Authenticate)', async () => {
      const response = await read(OUTSIDER);
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(response.body).not.toContain('frontdesk_');
    });

    it('refuses a wrong token, even from loopback or an allowed address', async () => {
      const wrong = bearer(randomBytes(32).toString('base64url'));
      for (const address of [OUTSIDER, '127.0.0.1', '10.1.2.3']) {
        expect((await read(address, wrong)).statusCode, address).toBe(401);
      }
    });

    it('refuses a visitor the proxy names, however it spoofs its own forwarding header', async () => {
      // The proxy (127.0.0.1) appends the visitor's address to what the visitor sent.
      const spoofed = await read('127.0.0.1', { 'x-forwarded-for': `127.0.0.1, ${OUTSIDER}` });
      expect(spoofed.statusCode).toBe(401);
    });

    it('serves the token from anywhere, and the allowed addresses without it', async () => {
      expect((await read(OUTSIDER, bearer(token))).statusCode).toBe(200);
      for (const address of ['10.1.2.3', '192.0.2.7', '127.0.0.1']) {
        expect((await read(address)).statusCode, address).toBe(200);
      }
      expect((await read('10.2.0.1')).statusCode).toBe(401);
    });
  });

  it('refuses to start with a short token or a malformed address list', () => {
    const base = {
      DATABASE_URL: 'postgresql://postgres@/test',
      XMPP_JWT_SECRET: 'x'.repeat(43),
      JANUS_TOKEN_SECRET: 'x'.repeat(24),
      JANUS_ADMIN_KEY: 'x'.repeat(24),
      API_TOKEN_SECRET: 'x'.repeat(43),
      GUEST_FINGERPRINT_KEY: 'y'.repeat(43),
    };
    expect(() => loadConfig({ ...base, METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    for (const list of ['10.0.0.0/33', 'example.org', '10.0.0.1/8/8', '::1/129']) {
      expect(() => loadConfig({ ...base, METRICS_ALLOWED_ADDRESSES: list }), list).toThrow(
        /METRICS_ALLOWED_ADDRESSES/,
      );
    }
    expect(
      loadConfig({ ...base, METRICS_ALLOWED_ADDRESSES: ' 10.0.0.0/8 ,fd00::/8,,192.0.2.1' })
        .metrics,
    ).toEqual({ token: undefined, allowedAddresses: ['10.0.0.0/8', 'fd00::/8', '192.0.2.1'] });
  });
});
