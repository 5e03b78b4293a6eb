import { fakeApi, type FakeAnswer } from '@frontdesk/protocol/testing';

/**
 * The fake API for admin pages: answers from `answers` (which a test may change between steps:
 * the list after an invitation, a newer version); `sent` holds each request with its `ifMatch`.
 */
export function adminApi(answers: Record<string, FakeAnswer>) {
  const { api, requests: sent } = fakeApi(answers);
  /** The requests that change something (every method but GET). */
  const writes = () => sent.filter((request) => !request.route.startsWith('GET '));
  return { api, answers, sent, writes };
}
