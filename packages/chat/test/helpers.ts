import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { startEjabberd, type RunningEjabberd } from '../../../infra/src/ejabberd.ts';
import {
  ChatSession,
  type ChatEvents,
  type ChatSessionOptions,
  type RoomSnapshot,
} from '../src/index.ts';
import type { RoomAdmin } from '../src/server/rooms.ts';

/** A real ejabberd in a temp folder, with the key our API would sign tokens with. */
export interface TestXmpp {
  xmpp: RunningEjabberd;
  jwtSecret: Uint8Array;
  admin: RoomAdmin;
  /** Stops ejabberd and starts it again on the same folder and ports (rooms persist). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startTestXmpp(): Promise<TestXmpp> {
  const dir = await mkdtemp(join(tmpdir(), 'frontdesk-chat-test-'));
  const jwtSecret = randomBytes(32);
  let xmpp = await startEjabberd({ dir, jwtSecret });
  const test: TestXmpp = {
    get xmpp() {
      return xmpp;
    },
    jwtSecret,
    admin: { adminApiUrl: xmpp.adminApiUrl, domain: xmpp.domain },
    async restart() {
      await xmpp.stop();
      const { wsPort, c2sPort } = xmpp;
      const adminApiPort = Number(new URL(xmpp.adminApiUrl).port);
      xmpp = await startEjabberd({ dir, jwtSecret, wsPort, c2sPort, adminApiPort });
    },
    async stop() {
      await xmpp.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return test;
}

/** A token as apps/api mints them: HS256 over `{jid, exp}` with the raw key bytes. */
export function mintToken(
  key: Uint8Array,
  jid: string,
  expiresAt: number | string = '1h',
): Promise<string> {
  return new SignJWT({ jid })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime(expiresAt)
    .sign(key);
}

/** A session of `username` on the test server, not yet connected. */
export async function sessionOf(
  test: TestXmpp,
  username: string,
  options: Partial<ChatSessionOptions> = {},
): Promise<ChatSession> {
  const jid = `${username}@${test.xmpp.domain}`;
  return new ChatSession({
    url: test.xmpp.wsUrl,
    jid,
    token: await mintToken(test.jwtSecret, jid),
    sender: username.startsWith('staff-') ? 'AGENT' : 'GUEST',
    log: () => undefined,
    ...options,
  });
}

/** The next `event` for which `match` holds. */
export function nextEvent<K extends keyof ChatEvents>(
  session: ChatSession,
  event: K,
  match: (payload: ChatEvents[K]) => boolean = () => true,
  timeoutMs = 20_000,
): Promise<ChatEvents[K]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no matching ${event} event within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = session.on(event, (payload) => {
      if (!match(payload)) return;
      clearTimeout(timer);
      off();
      resolve(payload);
    });
  });
}

/** Resolves with the room once `match` holds for it (now or after a later change). */
export async function roomWhere(
  session: ChatSession,
  room: string,
  match: (room: RoomSnapshot) => boolean,
  timeoutMs?: number,
): Promise<RoomSnapshot> {
  const now = session.room(room);
  if (now && match(now)) return now;
  return nextEvent(session, 'room', (r) => r.jid === room && match(r), timeoutMs);
}
