import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Dsn } from './dsn.ts';

/** What became of an envelope: forwarded (with the upstream's answer) or kept on disk. */
export type Delivery =
  { outcome: 'forwarded'; status: number; headers: Record<string, string> } | { outcome: 'stored' };

/** Where `/api/monitoring` puts the envelopes it accepts. */
export interface EnvelopeSink {
  deliver(envelope: Uint8Array, dsn: Dsn): Promise<Delivery>;
}

const FORWARD_TIMEOUT_MS = 10_000;
/** The upstream's rate-limit answers, which the browser SDK obeys. */
const PASSED_ON_HEADERS = ['retry-after', 'x-sentry-rate-limits'];

/** Forwards each envelope to the DSN's own server; throws when that server cannot be reached. */
export class HttpEnvelopeForwarder implements EnvelopeSink {
  async deliver(envelope: Uint8Array, dsn: Dsn): Promise<Delivery> {
    const response = await fetch(dsn.envelopeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-sentry-envelope' },
      body: envelope,
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await response.body?.cancel();
    const headers: Record<string, string> = {};
    for (const name of PASSED_ON_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    return { outcome: 'forwarded', status: response.status, headers };
  }
}

/** Keeps each envelope as a file under `<root>/<YYYY-MM-DD>/`, for an admin to read. */
export class DiskEnvelopeStore implements EnvelopeSink {
  constructor(private readonly root: string) {}

  async deliver(envelope: Uint8Array): Promise<Delivery> {
    const now = new Date().toISOString();
    const folder = join(this.root, now.slice(0, 10));
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const name = `${now.replaceAll(':', '-')}-${randomBytes(4).toString('hex')}.envelope`;
    // SECURITY: a browser's error report may carry what its guest typed: the owner's alone.
    await writeFile(join(folder, name), envelope, { flag: 'wx', mode: 0o600 });
    return { outcome: 'stored' };
  }
}
