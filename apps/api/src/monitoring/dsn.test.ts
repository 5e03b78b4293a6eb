import { describe, expect, it } from 'vitest';
import { envelopeDsn, parseDsn, sameDsn } from './dsn.ts';

describe('parseDsn', () => {
  it('finds the key, host, project and envelope endpoint', () => {
    expect(parseDsn('https://abc123@o1.ingest.example.io/42')).toEqual({
      publicKey: 'abc123',
      host: 'o1.ingest.example.io',
      projectId: '42',
      envelopeUrl: 'https://o1.ingest.example.io/api/42/envelope/',
    });
    expect(parseDsn('http://key@127.0.0.1:9000/sentry/7')?.envelopeUrl).toBe(
      'http://127.0.0.1:9000/sentry/api/7/envelope/',
    );
  });

  it('refuses what is no DSN', () => {
    for (const text of [
      '',
      'not a url',
      'https://o1.example.io/42',
      'https://k@o1.example.io/abc',
      'ftp://k@h/1',
    ]) {
      expect(parseDsn(text)).toBeUndefined();
    }
  });
});

describe('sameDsn', () => {
  it('compares key, host and project', () => {
    const dsn = (text: string) => parseDsn(text) ?? expect.fail(text);
    expect(sameDsn(dsn('https://k@h.io/1'), dsn('http://k@h.io/1'))).toBe(true);
    expect(sameDsn(dsn('https://k@h.io/1'), dsn('https://other@h.io/1'))).toBe(false);
    expect(sameDsn(dsn('https://k@h.io/1'), dsn('https://k@evil.io/1'))).toBe(false);
    expect(sameDsn(dsn('https://k@h.io/1'), dsn('https://k@h.io/2'))).toBe(false);
  });
});

describe('envelopeDsn', () => {
  const encode = (text: string) => new TextEncoder().encode(text);

  it('reads the dsn of the header line', () => {
    expect(
      envelopeDsn(encode('{"dsn":"https://k@h.io/1","sent_at":"x"}\n{"type":"event"}\n{}')),
    ).toBe('https://k@h.io/1');
  });

  it('finds none in a header without one or in junk', () => {
    expect(envelopeDsn(encode('{"event_id":"1"}\n{}'))).toBeUndefined();
    expect(envelopeDsn(encode('garbage'))).toBeUndefined();
    expect(envelopeDsn(encode('{"dsn":42}'))).toBeUndefined();
  });
});
