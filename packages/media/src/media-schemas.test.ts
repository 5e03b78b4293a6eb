import { describe, expect, it } from 'vitest';
import { roomTokenRole, roomTokenSchema, setupComplete } from '@frontdesk/protocol';

describe('protocol media helpers', () => {
  it('reads the role of a room token and refuses anything else as one', () => {
    const mac = 'A'.repeat(43);
    expect(roomTokenRole(roomTokenSchema.parse(`guest.${mac}`))).toBe('guest');
    expect(roomTokenRole(roomTokenSchema.parse(`agent.${mac}`))).toBe('agent');
    for (const bad of [`admin.${mac}`, `guest.${mac}x`, `guest.${mac.slice(1)}/`, 'guest']) {
      expect(roomTokenSchema.safeParse(bad).success).toBe(false);
    }
  });

  it('needs every spec §4 stage to have succeeded', () => {
    const all = {
      createRoom: true,
      joinRoom: true,
      createOffer: true,
      createAnswer: true,
      localStream: true,
      remoteStream: true,
    };
    expect(setupComplete(all)).toBe(true);
    expect(setupComplete({ ...all, createAnswer: false })).toBe(false);
    expect(setupComplete({ ...all, remoteStream: undefined })).toBe(false);
  });
});
