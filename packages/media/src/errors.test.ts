import { describe, expect, it } from 'vitest';
import { MediaError, toMediaError, videoroomError } from './errors.ts';

describe('toMediaError', () => {
  it.each([
    ['Library not initialized', 'notInitialized', false],
    ['WebRTC not supported by this browser', 'webrtcUnsupported', false],
    ['Invalid server url', 'invalidServerUrl', false],
    ['Is the server down? (connected=false)', 'serverDown', true],
    ['Lost connection to the server (is it down?)', 'connectionLost', true],
    ['Invalid handle', 'invalidHandle', true],
    ['Probably a network error, is the server down?', 'networkError', true],
    ['Request timed out', 'timeout', true],
    ['Failed to parse response body', 'badResponse', true],
    ['API call failed', 'apiCallFailed', true],
    ['Invalid plugin', 'invalidPlugin', false],
    ['Invalid JSEP', 'invalidJsep', false],
    ['Provided a JSEP to a createOffer', 'invalidJsep', false],
    ['A valid JSEP is required for createAnswer', 'invalidJsep', false],
    ['Tracks must be an array', 'invalidArgument', false],
    ['Error connecting to the Janus WebSockets server: Is the server down?', 'serverDown', true],
    ['Ooops: 403 Unauthorized request (wrong or missing secret/token)', 'unauthorized', false],
    ['458 No such session', 'plugin', true],
  ] as const)('maps spec §8 "%s" to %s', (message, code, retryable) => {
    const error = toMediaError(message);
    expect(error).toBeInstanceOf(MediaError);
    expect(error.code).toBe(code);
    expect(error.message).toBe(message);
    expect(error.retryable).toBe(retryable);
  });

  it('keeps the Janus code and wraps browser exceptions', () => {
    expect(toMediaError("Ooops: 405 Provided token can't access plugin").janusCode).toBe(405);
    const browser = toMediaError(new DOMException('denied', 'NotAllowedError'));
    expect(browser.code).toBe('webrtc');
    expect(browser.message).toBe('NotAllowedError: denied');
  });

  it('treats a wrong pin as final and a missing room as worth retrying', () => {
    expect(videoroomError(433, 'Unauthorized (wrong pin)').retryable).toBe(false);
    expect(videoroomError(426, 'No such room').retryable).toBe(true);
  });
});
