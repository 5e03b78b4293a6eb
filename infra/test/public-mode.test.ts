// Public mode's settings, the address Janus announces, and the demo logins it switches off.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase } from '@frontdesk/api/operations';
import { machineDatabaseUrl } from '../src/disposable-stack.ts';
import {
  deactivateDemoLogins,
  detectJanusPublicIp,
  isLoopbackHost,
  publicEnvSchema,
  publicSiteOf,
} from '../src/public-mode.ts';

describe('publicEnvSchema', () => {
  const site = (env: Record<string, string>) => {
    const parsed = publicEnvSchema.safeParse(env);
    return parsed.success ? publicSiteOf(parsed.data) : parsed.error.issues.map((i) => i.message);
  };

  it('reads the host and port of FRONTDESK_PUBLIC_URL, and the certificate files', () => {
    expect(site({})).toBeUndefined();
    expect(site({ FRONTDESK_PUBLIC_URL: 'https://Calls.Example.com' })).toEqual({
      host: 'calls.example.com',
      httpsPort: 443,
      httpPort: 80,
    });
    expect(
      site({
        FRONTDESK_PUBLIC_URL: 'https://calls.example.com:8443/',
        FRONTDESK_TLS_CERT: '/etc/ssl/fullchain.pem',
        FRONTDESK_TLS_KEY: '/etc/ssl/privkey.pem',
        FRONTDESK_ACME_EMAIL: 'ops@example.com',
      }),
    ).toEqual({
      host: 'calls.example.com',
      httpsPort: 8443,
      httpPort: 80,
      tls: { certFile: '/etc/ssl/fullchain.pem', keyFile: '/etc/ssl/privkey.pem' },
      acmeEmail: 'ops@example.com',
    });
  });

  it('refuses what cannot be a public HTTPS site', () => {
    for (const url of [
      'http://calls.example.com',
      'calls.example.com',
      'https://calls.example.com/app',
      'https://203.0.113.7',
    ]) {
      expect(site({ FRONTDESK_PUBLIC_URL: url }), url).toEqual([
        expect.stringContaining('must be https://<host name>'),
      ]);
    }
    expect(
      site({ FRONTDESK_PUBLIC_URL: 'https://calls.example.com', FRONTDESK_TLS_CERT: '/x.pem' }),
    ).toEqual([expect.stringContaining('go together')]);
    expect(site({ FRONTDESK_TLS_CERT: '/x.pem', FRONTDESK_TLS_KEY: '/y.pem' })).toEqual([
      expect.stringContaining('is required'),
    ]);
  });

  it('tells loopback API addresses from reachable ones', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of ['0.0.0.0', '10.0.0.5', '::'])
      expect(isLoopbackHost(host), host).toBe(false);
  });
});

describe('detectJanusPublicIp', () => {
  const resolvesTo = (addresses: string[]) => async () => addresses;

  it('maps to the public address DNS gives when the machine does not hold it (1:1 NAT)', async () => {
    expect(
      await detectJanusPublicIp('calls.example.com', resolvesTo(['198.51.100.20']), () => [
        '10.0.0.5',
      ]),
    ).toEqual({ ip: '198.51.100.20', why: expect.stringContaining('1:1 NAT') });
  });

  it('maps nothing when the machine holds the address, or DNS gives no public one', async () => {
    const own = await detectJanusPublicIp(
      'calls.example.com',
      resolvesTo(['198.51.100.20']),
      () => ['198.51.100.20'],
    );
    expect(own.ip).toBeUndefined();
    expect(own.why).toContain('an address of this machine');
    const privateOnly = await detectJanusPublicIp(
      'calls.example.com',
      resolvesTo(['10.1.2.3', '127.0.0.1', '192.168.1.9', '172.20.0.1', '100.64.0.1']),
      () => [],
    );
    expect(privateOnly).toEqual({ why: expect.stringContaining('no public IPv4 address') });
    const unknown = await detectJanusPublicIp(
      'calls.example.com',
      async () => Promise.reject(new Error('ENOTFOUND')),
      () => [],
    );
    expect(unknown).toEqual({ why: expect.stringContaining('does not resolve') });
  });
});

describe('deactivateDemoLogins', () => {
  const schema = `public_mode_${randomBytes(6).toString('hex')}`;
  afterAll(async () => {
    const client = new pg.Client({ connectionString: machineDatabaseUrl });
    await client.connect();
    await client.query(`drop schema if exists "${schema}" cascade`);
    await client.end();
  });

  it('switches off the demo logins an earlier local start left, and nobody else', async () => {
    // Before the API's first start there is no table: nothing to do.
    const db = await openDatabase(machineDatabaseUrl, schema);
    try {
      expect(await deactivateDemoLogins(machineDatabaseUrl, schema)).toBe(0);
      // A new schema: there is no fingerprint for migration 0030 to hash, so any key does.
      await migrateToLatest(db, { fingerprintKey: randomBytes(32).toString('base64url') });
      const { id } = await db
        .insertInto('companies')
        .values({ name: 'Acme', conference_name: 'acme', room_password: 'x'.repeat(24) })
        .returning('id')
        .executeTakeFirstOrThrow();
      const member = (email: string) => ({
        company_id: id,
        email,
        name: email,
        role: 'admin' as const,
        password_hash: 'scrypt$1$1$1$x$y',
      });
      await db
        .insertInto('staff')
        .values([member('admin@frontdesk.demo'), member('ops@acme.example')])
        .execute();
      expect(await deactivateDemoLogins(machineDatabaseUrl, schema)).toBe(1);
      expect(await deactivateDemoLogins(machineDatabaseUrl, schema)).toBe(0);
      const rows = await db
        .selectFrom('staff')
        .select(['email', 'active'])
        .orderBy('email')
        .execute();
      expect(rows).toEqual([
        { email: 'admin@frontdesk.demo', active: false },
        { email: 'ops@acme.example', active: true },
      ]);
    } finally {
      await db.destroy();
    }
  });
});
