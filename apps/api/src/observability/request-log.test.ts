import { describe, expect, it } from 'vitest';
import { redactUrl } from './request-log.ts';

describe('redactUrl', () => {
  it("replaces a recording link's signature and keeps the rest as it came", () => {
    expect(
      redactUrl(
        '/api/reports/recordings/a%2Fb?company=5&admin=3&expires=1800000000&signature=AbC-_9',
      ),
    ).toBe(
      '/api/reports/recordings/a%2Fb?company=5&admin=3&expires=1800000000&signature=[redacted]',
    );
  });

  it('redacts every signature, however its name is spelt in the query, and one with no value', () => {
    expect(redactUrl('/x?signature=a&%73ignature=b&sig%6Eature&signature=')).toBe(
      '/x?signature=[redacted]&%73ignature=[redacted]&sig%6Eature=[redacted]&signature=[redacted]',
    );
  });

  it('leaves a URL without a signature alone, malformed escapes and all', () => {
    for (const url of ['/api/health', '/api/reports/calls?from=2026-01-01&q=%E0%A4%A', '/x?']) {
      expect(redactUrl(url)).toBe(url);
    }
  });

  it('without personal data, keeps only the keys of the query (decision 0033)', () => {
    expect(
      redactUrl('/api/guest-auth/guestDetails?username=gabc&x&signature=s', {
        personalData: false,
      }),
    ).toBe('/api/guest-auth/guestDetails?username=[redacted]&x=[redacted]&signature=[redacted]');
    expect(redactUrl('/api/health', { personalData: false })).toBe('/api/health');
  });
});
