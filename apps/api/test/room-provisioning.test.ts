import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningEjabberd } from '@frontdesk/infra';
import { provisionChatRooms } from '../src/xmpp/room-provisioning.ts';
import { startChatServer } from './chat-server.ts';
import { buildTestApp, type TestApp } from './helper.ts';

/** A logger that keeps what it is told, to see what provisioning reports. */
function recordingLogger() {
  const logger = {
    debug: vi.fn(),
    info: vi.fn(),
    warn: vi.fn(),
    error: vi.fn(),
  };
  return { logger, log: logger as unknown as FastifyBaseLogger };
}

describe('provisionChatRooms', () => {
  let server: Awaited<ReturnType<typeof startChatServer>>;
  let xmpp: RunningEjabberd;
  let t: TestApp;

  // The API is not told of the server: the tests run the provisioning themselves.
  beforeAll(async () => {
    [server, t] = await Promise.all([startChatServer('rooms'), buildTestApp()]);
    xmpp = server.xmpp;
  });
  afterAll(async () => {
    await t?.close();
    await server?.stop();
  });

  const roomOptions = async (name: string) => {
    const response = await fetch(`${xmpp.adminApiUrl}/get_room_options`, {
      method: 'POST',
      body: JSON.stringify({ name, service: xmpp.mucService }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, string>;
  };

  it("creates every company's room for its staff, behind its password, and reserves the staff's nicks, idempotently", async () => {
    const admin = { adminApiUrl: xmpp.adminApiUrl, domain: xmpp.domain };
    const { logger, log } = recordingLogger();
    expect(await provisionChatRooms(t.app.db, admin, log)).toBe(true);
    const { room_password } = await t.app.db
      .selectFrom('companies')
      .select('room_password')
      .where('id', '=', 5)
      .executeTakeFirstOrThrow();
    expect(await roomOptions('frontdesk-demo')).toMatchObject({
      members_only: 'true',
      password_protected: 'true',
      password: room_password,
      persistent: 'true',
    });
    // No room per category any more: each call has its own (decision 0010).
    expect(await roomOptions('frontdesk-demo-support')).toEqual({});
    const staff = await t.app.db
      .selectFrom('staff')
      .select('id')
      .where('company_id', '=', 5)
      .where('active', '=', true)
      .execute();
    const affiliations = await fetch(`${xmpp.adminApiUrl}/get_room_affiliations`, {
      method: 'POST',
      body: JSON.stringify({ name: 'frontdesk-demo', service: xmpp.mucService }),
    });
    const members = ((await affiliations.json()) as { username: string }[])
      .map((a) => a.username)
      .sort();
    expect(members).toEqual(staff.map(({ id }) => `staff-${id}`).sort());
    // Another start changes nothing, and registering the nicks again is no error.
    expect(await provisionChatRooms(t.app.db, admin, log)).toBe(true);
    expect(logger.debug).toHaveBeenCalledWith(
      expect.objectContaining({ item: 'frontdesk-demo', outcome: 'unchanged' }),
      'chat provisioned',
    );
    // SECURITY: no password in any log line.
    expect(JSON.stringify(Object.values(logger).map((fn) => fn.mock.calls))).not.toContain(
      room_password,
    );
  });

  it('tries again after a backoff, then logs what it could not provision and goes on', async () => {
    const { logger, log } = recordingLogger();
    const unreachable = { adminApiUrl: 'http://127.0.0.1:9/api', domain: xmpp.domain };
    expect(await provisionChatRooms(t.app.db, unreachable, log, [1, 1])).toBe(false);
    expect(logger.warn).toHaveBeenCalledTimes(2);
    expect(logger.warn).toHaveBeenCalledWith(
      expect.objectContaining({ retryInMs: 1, items: expect.arrayContaining(['frontdesk-demo']) }),
      'chat rooms could not be provisioned yet',
    );
    expect(logger.error).toHaveBeenCalledOnce();
  });
});
