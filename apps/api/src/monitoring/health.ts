import type { Kysely } from 'kysely';
import type { Health } from '@frontdesk/protocol';
import type { Config } from '../config.ts';
import { pingDatabase } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

type DependencyStatus = NonNullable<Health['dependencies']>['database'];
export type Dependencies = NonNullable<Health['dependencies']>;

/** A dependency that has not answered by then counts as down: a health check must not hang. */
const CHECK_TIMEOUT_MS = 2000;

/**
 * How long `/readyz` waits for the optional dependencies (chat, media) before it calls them down.
 * Their state never decides readiness, so it must not delay it either: the load balancer gives
 * the probe 1 s, and a last replica whose answer waited on a slow chat server was taken out as if
 * it had failed, leaving browsers no replica at all (the cluster loss journey, under load).
 */
export const READINESS_OPTIONAL_TIMEOUT_MS = 500;

async function probe(check: () => Promise<void>): Promise<DependencyStatus> {
  const started = performance.now();
  try {
    await check();
    return { status: 'up', latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    return { status: 'down', error: error instanceof Error ? error.message : String(error) };
  }
}

async function expectOk(url: string, timeoutMs: number, init?: RequestInit): Promise<void> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
}

/**
 * `GET /health`: asks the database, the XMPP server and Janus at once how they are, so one slow
 * dependency costs the check no more than its own time. `httpTimeoutMs` bounds the XMPP and
 * Janus probes (2 s unless said).
 */
export async function checkDependencies(
  db: Kysely<Database>,
  config: Pick<Config, 'xmpp' | 'janus'>,
  httpTimeoutMs = CHECK_TIMEOUT_MS,
): Promise<Dependencies> {
  const [database, xmpp, janus] = await Promise.all([
    probe(() => pingDatabase(db)),
    probe(() =>
      expectOk(`${config.xmpp.adminUrl}/status`, httpTimeoutMs, { method: 'POST', body: '{}' }),
    ),
    // Up while any server of the pool answers: the others' calls move to it (decision 0039).
    probe(() =>
      Promise.any(
        config.janus.servers.map((server) => expectOk(`${server.httpUrl}/info`, httpTimeoutMs)),
      ).catch((all: AggregateError) => {
        throw new Error(all.errors.map((error) => String(error)).join('; '));
      }),
    ),
  ]);
  return { database, xmpp, janus };
}

/** Up only when every dependency is. */
export const allUp = (dependencies: Dependencies): boolean =>
  Object.values(dependencies).every((d) => d.status === 'up');
