import { createHmac, randomBytes } from 'node:crypto';
import { importJWK, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { mintJanusToken, mintXmppToken } from './service-tokens.ts';

describe('mintXmppToken', () => {
  it('signs { jid, exp } with HS256 that the jwt_key JWK of ejabberd verifies', async () => {
    const secret = randomBytes(32).toString('base64url');
    const expiresAt = new Date('2030-01-01T00:00:00Z');
    const token = await mintXmppToken(secret, 'g5-abc@frontdesk.localhost', expiresAt);
    // ejabberd's jwt_key file is exactly this JWK: `k` is the secret text.
    const key = await importJWK({ kty: 'oct', alg: 'HS256', k: secret });
    const { payload, protectedHeader } = await jwtVerify(token, key);
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload).toEqual({ jid: 'g5-abc@frontdesk.localhost', exp: 1_893_456_000 });
  });

  it('is refused under another key', async () => {
    const token = await mintXmppToken(
      randomBytes(32).toString('base64url'),
      'a@b',
      new Date(Date.now() + 60_000),
    );
    const other = await importJWK({
      kty: 'oct',
      alg: 'HS256',
      k: randomBytes(32).toString('base64url'),
    });
    await expect(jwtVerify(token, other)).rejects.toThrow();
  });
});

describe('mintJanusToken', () => {
  it('is "<expiry>,janus,janus.plugin.videoroom:<base64 HMAC-SHA1>" (Janus token_auth_secret)', () => {
    const token = mintJanusToken('janus-secret-for-tests', new Date('2030-01-01T00:00:00.900Z'));
    const [data, signature] = token.split(':');
    expect(data).toBe('1893456000,janus,janus.plugin.videoroom');
    expect(signature).toBe(
      createHmac('sha1', 'janus-secret-for-tests')
        .update(data ?? '')
        .digest('base64'),
    );
    // Standard base64 with padding: 20 bytes of SHA-1 make 28 characters ending in "=".
    expect(signature).toMatch(/^[A-Za-z0-9+/]{27}=$/);
  });
});
