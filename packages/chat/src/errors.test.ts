import { describe, expect, it } from 'vitest';
import { ChatError, chatErrorCodeOf } from './errors.ts';

describe('chat errors', () => {
  it.each([
    ['Failed to negotiate stream features: JID binding failed', 'bind-failed'],
    ['Failed to negotiate stream features: Session requeset failed', 'session-failed'],
    ['Mutual authentication failed', 'mutual-auth-failed'],
    ['Failed to negotiate stream features: authentication failed', 'auth-failed'],
    ['Room nick required', 'nick-required'],
    ['No upload service discovered on: example.com', 'no-upload-service'],
  ] as const)('translates StanzaJS’s “%s” (spec §8)', (text, code) => {
    expect(chatErrorCodeOf(text)).toBe(code);
  });

  it('leaves other texts alone', () => {
    expect(chatErrorCodeOf('Server did not respond in 15 seconds')).toBeUndefined();
    expect(chatErrorCodeOf(undefined)).toBeUndefined();
  });

  it('carries a code and the words the user sees', () => {
    const error = new ChatError('auth-failed', 'token expired');
    expect(error).toMatchObject({ name: 'ChatError', code: 'auth-failed' });
    expect(error.userMessage).toMatch(/reload/);
  });
});
