import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureCallRoom,
  ensureRoom,
  newRoomPassword,
  removeRoom,
  reserveNick,
  RoomAdminError,
} from '../src/server/rooms.ts';
import { startTestXmpp, type TestXmpp } from './helpers.ts';

let test: TestXmpp;

beforeAll(async () => {
  test = await startTestXmpp();
});

afterAll(async () => {
  await test?.stop();
});

const jidOf = (user: string) => `${user}@${test.xmpp.domain}`;

async function membersOf(name: string): Promise<string[]> {
  const response = await fetch(`${test.admin.adminApiUrl}/get_room_affiliations`, {
    method: 'POST',
    body: JSON.stringify({ name, service: test.xmpp.mucService }),
  });
  const list = (await response.json()) as { username: string; affiliation: string }[];
  return list
    .filter((entry) => entry.affiliation === 'member')
    .map((entry) => entry.username)
    .sort();
}

async function optionsOf(name: string): Promise<Record<string, string>> {
  const response = await fetch(`${test.admin.adminApiUrl}/get_room_options`, {
    method: 'POST',
    body: JSON.stringify({ name, service: test.xmpp.mucService }),
  });
  return (await response.json()) as Record<string, string>;
}

describe('room provisioning through the admin API', () => {
  it('creates a members-only, password-protected, semi-anonymous, persistent room once', async () => {
    const password = newRoomPassword();
    expect(password).toMatch(/^[a-z2-7]{26}$/);
    const room = { name: 'company-7', title: 'Company 7', password, members: [jidOf('staff-1')] };
    expect(await ensureRoom(test.admin, room)).toBe('created');
    expect(await optionsOf('company-7')).toMatchObject({
      persistent: 'true',
      members_only: 'true',
      password_protected: 'true',
      password,
      anonymous: 'true',
      public: 'false',
      allow_private_messages: 'false',
      max_users: '50',
    });
    expect(await ensureRoom(test.admin, room)).toBe('unchanged');
    expect(await membersOf('company-7')).toEqual(['staff-1']);
  });

  it('makes a call room for its members only, and adds members to it idempotently', async () => {
    const room = { name: 'gabc--x1', title: 'Call', members: [jidOf('g1-gabc')] };
    await ensureCallRoom(test.admin, room);
    await ensureCallRoom(test.admin, { ...room, members: [jidOf('g1-gabc'), jidOf('staff-2')] });
    expect(await optionsOf('gabc--x1')).toMatchObject({
      members_only: 'true',
      password_protected: 'false',
      anonymous: 'true',
      allow_private_messages: 'false',
    });
    expect(await membersOf('gabc--x1')).toEqual(['g1-gabc', 'staff-2']);
    await expect(ensureCallRoom(test.admin, { ...room, name: 'Not A Room!' })).rejects.toThrow(
      /name/,
    );
  });

  it('reserves a nick for its owner', async () => {
    await reserveNick(test.admin, 'staff-3', jidOf('staff-3'));
    // Registering the same nick to someone else is refused by ejabberd.
    await expect(reserveNick(test.admin, 'staff-3', jidOf('g1-gxyz'))).rejects.toBeInstanceOf(
      RoomAdminError,
    );
  });

  it('brings an existing room in line (new password, title)', async () => {
    const members: string[] = [];
    await ensureRoom(test.admin, {
      name: 'company-8',
      title: 'Old',
      password: newRoomPassword(),
      members,
    });
    const password = newRoomPassword();
    expect(
      await ensureRoom(test.admin, {
        name: 'company-8',
        title: 'New',
        password,
        maxUsers: 20,
        members,
      }),
    ).toBe('updated');
    expect(await optionsOf('company-8')).toMatchObject({ title: 'New', password, max_users: '20' });
  });

  it('refuses an uppercase password and a bad name before calling ejabberd', async () => {
    await expect(
      ensureRoom(test.admin, {
        name: 'company-9',
        title: 'x',
        password: 'MixedCase-Password',
        members: [],
      }),
    ).rejects.toThrow(/lowercase/);
    await expect(
      ensureRoom(test.admin, {
        name: 'Company 9',
        title: 'x',
        password: newRoomPassword(),
        members: [],
      }),
    ).rejects.toThrow(/name/);
  });

  it('removes a room, and a missing room is no error', async () => {
    await ensureCallRoom(test.admin, { name: 'gdef--y2', title: 'c', members: [] });
    await removeRoom(test.admin, 'gdef--y2');
    await removeRoom(test.admin, 'gdef--y2');
    expect(await optionsOf('gdef--y2')).toEqual({});
  });

  it('reports an unreachable admin API as a RoomAdminError', async () => {
    const admin = { ...test.admin, adminApiUrl: 'http://127.0.0.1:9/api', timeoutMs: 1000 };
    await expect(
      ensureRoom(admin, {
        name: 'company-10',
        title: 'x',
        password: newRoomPassword(),
        members: [],
      }),
    ).rejects.toBeInstanceOf(RoomAdminError);
  });
});
