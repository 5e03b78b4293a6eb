import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { chmod, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';

/** A fresh folder under the system temp dir and a function that removes it. */
export async function tempDir(
  prefix: string,
): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  // The servers run as their own users (ejabberd, frontdesk-janus): they must enter it.
  await chmod(path, 0o711);
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/**
 * A throwaway self-signed certificate for `name` (an EC key, valid `days`), written as
 * `<base>.crt` and `<base>.key` by openssl, as an operator would make one.
 */
export async function selfSignedCertificate(
  base: string,
  name: string,
  days: number,
): Promise<{ certFile: string; keyFile: string; cert: string; key: string }> {
  const [certFile, keyFile] = [`${base}.crt`, `${base}.key`];
  execFileSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    String(days),
    '-subj',
    `/CN=${name}`,
    '-addext',
    `subjectAltName=DNS:${name}`,
    '-keyout',
    keyFile,
    '-out',
    certFile,
  ]);
  return {
    certFile,
    keyFile,
    cert: await readFile(certFile, 'utf8'),
    key: await readFile(keyFile, 'utf8'),
  };
}

/** Live processes, from /proc: PID, command name and full command line. */
export async function processes(): Promise<{ pid: number; comm: string; cmdline: string }[]> {
  const found = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      const comm = (await readFile(`/proc/${entry}/comm`, 'utf8')).trim();
      const cmdline = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).replaceAll('\0', ' ');
      found.push({ pid: Number(entry), comm, cmdline });
    } catch {
      // exited while we looked
    }
  }
  return found;
}

/** The real and effective user ids of a live process, from /proc/<pid>/status. */
export async function processUids(pid: number): Promise<{ real: number; effective: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const [real, effective] = (/^Uid:\s+(\d+)\s+(\d+)/m.exec(status) ?? []).slice(1).map(Number);
  if (real === undefined || effective === undefined) throw new Error(`no Uid line for ${pid}`);
  return { real, effective };
}

/** An HS256 JWT, as our API will mint them for ejabberd. */
export function signJwt(key: Uint8Array, claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const data = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
  return `${data}.${createHmac('sha256', key).update(data).digest('base64url')}`;
}

/** A WebSocket client that queues text frames and waits for one matching a predicate. */
export class TestSocket {
  private readonly frames: string[] = [];
  private waiter: (() => void) | undefined;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.frames.push(data.toString());
      this.waiter?.();
    });
  }

  static open(url: string, protocol: string): Promise<TestSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, protocol);
      const socket = new TestSocket(ws);
      ws.once('open', () => resolve(socket));
      ws.once('error', reject);
    });
  }

  send(text: string): void {
    this.ws.send(text);
  }

  /** The first queued or future frame for which `match` is true (earlier frames are dropped). */
  async next(match: (frame: string) => boolean, timeoutMs = 5000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.frames.length > 0) {
        const frame = this.frames.shift() as string;
        if (match(frame)) return frame;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no matching WebSocket frame in time');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.waiter = undefined;
    }
  }

  close(): void {
    this.ws.close();
  }
}
