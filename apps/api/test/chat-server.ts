import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChatSession, type ChatError } from '@frontdesk/chat';
import { envelope, staffLoginSchema } from '@frontdesk/protocol';
import { startEjabberd, type RunningEjabberd } from '@frontdesk/infra';
import { findDemoLogin } from '../src/db/seed.ts';
import { buildTestApp, type TestApp } from './helper.ts';

/**
 * A real ejabberd of a test file's own, in a temporary folder, and the configuration that points
 * an API at it (its admin API, domain and the secret of its chat tokens); `stop` ends it and
 * removes the folder. `name` names the folder.
 */
export async function startChatServer(name: string): Promise<{
  xmpp: RunningEjabberd;
  env: Record<string, string>;
  stop: () => Promise<void>;
}> {
  const dir = await mkdtemp(join(tmpdir(), `frontdesk-api-${name}-`));
  const jwtSecret = randomBytes(32);
  try {
    const xmpp = await startEjabberd({ dir, jwtSecret });
    return {
      xmpp,
      env: {
        XMPP_ADMIN_URL: xmpp.adminApiUrl,
        XMPP_DOMAIN: xmpp.domain,
        XMPP_JWT_SECRET: Buffer.from(jwtSecret).toString('base64url'),
      },
      stop: async () => {
        await xmpp.stop();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** A member of staff signed in through the API with its chat connected as the console does. */
export type SignedInChat = {
  token: string;
  staffId: number;
  chat: ChatSession;
  /** The chat's first error: how the server ending the session shows. */
  ended: Promise<ChatError>;
  /** The server notices the chat received, in order. */
  notices: string[];
};

/**
 * The API on a fresh test schema ({@link buildTestApp}) with a chat server of its own: `signIn`
 * signs a demo member in and connects its chat, `connectedNow` asks the chat server whose
 * sessions are open (as XMPP user names, `staff-<id>`), `close` closes the chats, the API and
 * the server.
 */
export async function buildTestAppWithChat(name: string) {
  const server = await startChatServer(name);
  let t: TestApp;
  try {
    t = await buildTestApp(server.env);
  } catch (error) {
    await server.stop();
    throw error;
  }
  const { xmpp } = server;
  const open: ChatSession[] = [];

  async function signIn(email: string, resource = 'web-test'): Promise<SignedInChat> {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      body: { email, password: findDemoLogin(email).password },
    });
    const login = envelope(staffLoginSchema).parse(response.json()).data;
    const chat = new ChatSession({
      url: xmpp.wsUrl,
      jid: login.xmpp.jid,
      token: login.xmpp.password,
      sender: 'AGENT',
      resource,
      log: () => undefined,
    });
    open.push(chat);
    const notices: string[] = [];
    chat.on('serverNotice', (body) => notices.push(body));
    await chat.connect();
    const ended = new Promise<ChatError>((resolve) => chat.on('error', resolve));
    return { token: login.access_token, staffId: login.user.id, chat, ended, notices };
  }

  async function connectedNow(): Promise<string[]> {
    const response = await fetch(`${xmpp.adminApiUrl}/connected_users`, {
      method: 'POST',
      body: '{}',
    });
    return ((await response.json()) as string[]).map((jid) => jid.split('@')[0] ?? jid);
  }

  return {
    ...t,
    xmpp,
    signIn,
    connectedNow,
    close: async () => {
      for (const session of open) session.close();
      await t.close();
      await server.stop();
    },
  };
}

export type TestAppWithChat = Awaited<ReturnType<typeof buildTestAppWithChat>>;

/**
 * A guest's page in its call's chat room `room`, its chat connected to `url`: the chat server's
 * own, or an API's gateway.
 */
export async function guestInRoom(
  url: string,
  call: { services: { xmpp: { jid: string; password: string } } },
  room: string,
): Promise<ChatSession> {
  const guest = new ChatSession({
    url,
    jid: call.services.xmpp.jid,
    token: call.services.xmpp.password,
    sender: 'GUEST',
    log: () => undefined,
  });
  await guest.connect();
  await guest.joinRoom(room, { nick: guest.username });
  return guest;
}
