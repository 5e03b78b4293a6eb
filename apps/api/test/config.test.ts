import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';

const required = {
  DATABASE_URL: 'postgresql://localhost/frontdesk',
  XMPP_JWT_SECRET: randomBytes(32).toString('base64url'),
  JANUS_TOKEN_SECRET: randomBytes(24).toString('base64url'),
  JANUS_ADMIN_KEY: randomBytes(24).toString('base64url'),
  API_TOKEN_SECRET: randomBytes(32).toString('base64url'),
  GUEST_FINGERPRINT_KEY: randomBytes(32).toString('base64url'),
};

describe('STUN and TURN configuration', () => {
  it('refuses TURN servers without the secret shared with them, naming the variable', () => {
    expect(() => loadConfig({ ...required, TURN_URLS: 'turn:turn.example:3478' })).toThrow(
      /TURN_SECRET: is required with TURN_URLS/,
    );
  });

  it('refuses a TURN or STUN address that is not one, naming the variable', () => {
    expect(() =>
      loadConfig({ ...required, TURN_URLS: 'https://turn.example', TURN_SECRET: 'x'.repeat(16) }),
    ).toThrow(/TURN_URLS: must be turn: or turns: URLs/);
    expect(() => loadConfig({ ...required, STUN_URL: 'turn.example:3478' })).toThrow(/STUN_URL/);
  });

  it("takes coturn's CLI as host:port with its password, naming the variable otherwise", () => {
    const password = 'p'.repeat(16);
    expect(() => loadConfig({ ...required, TURN_CLI_ADDRESS: '127.0.0.1:5766' })).toThrow(
      /TURN_CLI_PASSWORD: is required with TURN_CLI_ADDRESS/,
    );
    for (const address of ['127.0.0.1', '127.0.0.1:99999', 'telnet://127.0.0.1:5766']) {
      expect(() =>
        loadConfig({ ...required, TURN_CLI_ADDRESS: address, TURN_CLI_PASSWORD: password }),
      ).toThrow(/TURN_CLI_ADDRESS: must be host:port/);
    }
    expect(
      loadConfig({ ...required, TURN_CLI_ADDRESS: '127.0.0.1:5766', TURN_CLI_PASSWORD: password })
        .turnCli,
    ).toEqual({ host: '127.0.0.1', port: 5766, password });
    expect(loadConfig(required).turnCli).toBeUndefined();
  });

  it('refuses a relay credential meant to live longer than an hour', () => {
    expect(() => loadConfig({ ...required, TURN_TTL_SECONDS: '86400' })).toThrow(
      /TURN_TTL_SECONDS/,
    );
  });

  it('uses the TURN server’s own STUN port when no STUN server is named', () => {
    const config = loadConfig({
      ...required,
      TURN_URLS: 'turns:turn.example:5349?transport=tcp,turn:turn.example:3478?transport=udp',
      TURN_SECRET: 'x'.repeat(16),
    });
    expect(config.ice.stunUrl).toBe('stun:turn.example:3478');
  });

  it('keeps a default STUN server when none is configured, unless told none (spec §9)', () => {
    expect(loadConfig(required).ice).toEqual({
      stunUrl: 'stun:stun.l.google.com:19302',
      turnUrls: [],
      turnSecret: null,
      turnTtlSeconds: 3600,
    });
    expect(loadConfig({ ...required, STUN_URL: 'none' }).ice.stunUrl).toBeNull();
    expect(loadConfig({ ...required, STUN_URL: 'stun:stun.example:3478' }).ice.stunUrl).toBe(
      'stun:stun.example:3478',
    );
  });
});
