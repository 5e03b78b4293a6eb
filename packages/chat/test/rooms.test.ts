import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRoom, newRoomPassword, removeRoom, RoomAdminError } from '../src/server/rooms.ts';
import { startTestXmpp, type TestXmpp } from './helpers.ts';

let test: TestXmpp;

beforeAll(async () => {
  test = await startTestXmpp();
});

afterAll(async () => {
  await test?.stop();
});

async function optionsOf(name: string): Promise<Record<string, string>> {
  const response = await fetch(`${test.admin.adminApiUrl}/get_room_options`, {
    method: 'POST',
    body: JSON.stringify({ name, service: test.xmpp.mucService }),
  });
  return (await response.json()) as Record<string, string>;
}

describe('room provisioning through the admin API', () => {
  it('creates a password-protected, semi-anonymous, persistent room once', async () => {
    const password = newRoomPassword();
    expect(password).toMatch(/^[a-z2-7]{26}$/);
    const room = { name: 'company-7', title: 'Company 7', password };
    expect(await ensureRoom(test.admin, room)).toBe('created');
    expect(await optionsOf('company-7')).toMatchObject({
      persistent: 'true',
      password_protected: 'true',
      password,
      anonymous: 'true',
      public: 'false',
      allow_private_messages: 'false',
      max_users: '50',
    });
    expect(await ensureRoom(test.admin, room)).toBe('unchanged');
  });

  it('brings an existing room in line (new password, title)', async () => {
    await ensureRoom(test.admin, { name: 'company-8', title: 'Old', password: newRoomPassword() });
    const password = newRoomPassword();
    expect(
      await ensureRoom(test.admin, { name: 'company-8', title: 'New', password, maxUsers: 20 }),
    ).toBe('updated');
    expect(await optionsOf('company-8')).toMatchObject({ title: 'New', password, max_users: '20' });
  });

  it('refuses an uppercase password and a bad name before calling ejabberd', async () => {
    await expect(
      ensureRoom(test.admin, { name: 'company-9', title: 'x', password: 'MixedCase-Password' }),
    ).rejects.toThrow(/lowercase/);
    await expect(
      ensureRoom(test.admin, { name: 'Company 9', title: 'x', password: newRoomPassword() }),
    ).rejects.toThrow(/name/);
  });

  it('removes a room, and a missing room is no error', async () => {
    await ensureRoom(test.admin, { name: 'category-3', title: 'c', password: newRoomPassword() });
    await removeRoom(test.admin, 'category-3');
    await removeRoom(test.admin, 'category-3');
    expect(await optionsOf('category-3')).toEqual({});
  });

  it('reports an unreachable admin API as a RoomAdminError', async () => {
    const admin = { ...test.admin, adminApiUrl: 'http://127.0.0.1:9/api', timeoutMs: 1000 };
    await expect(
      ensureRoom(admin, { name: 'company-10', title: 'x', password: newRoomPassword() }),
    ).rejects.toBeInstanceOf(RoomAdminError);
  });
});
