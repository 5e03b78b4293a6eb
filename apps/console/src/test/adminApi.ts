import type { ApiClient } from '@frontdesk/protocol';
import { fakeApi, type FakeAnswer } from '@frontdesk/protocol/testing';

/** One request the console sent through the fake API, with the `If-Match` it named. */
export type SentRequest = { route: string; body: unknown; ifMatch: number | undefined };

/**
 * The fake API for admin pages: answers from `answers` (which a test may change between steps:
 * the list after an invitation, a newer version), recording each request with its `ifMatch`.
 */
export function adminApi(answers: Record<string, FakeAnswer>) {
  const fake = fakeApi(answers);
  const sent: SentRequest[] = [];
  const api: ApiClient = async (route, ...args) => {
    const options = args[0] as { ifMatch?: number } | undefined;
    const result = fake.api(route, ...args);
    const request = fake.requests.at(-1);
    if (request) sent.push({ ...request, ifMatch: options?.ifMatch });
    return result;
  };
  /** The requests that change something (every method but GET). */
  const writes = () => sent.filter((request) => !request.route.startsWith('GET '));
  return { api, answers, sent, writes };
}
