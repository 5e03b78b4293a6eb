import { describe, expect, it } from 'vitest';
import { timelineEntrySchema } from './reports.ts';

describe('timelineEntrySchema', () => {
  const moment = { at: '2026-06-01T11:05:00.000Z', callId: 'c1', staff: null };

  it('takes what a moment tells as data of its kind', () => {
    const told = [
      { ...moment, kind: 'queued' },
      { ...moment, kind: 'transfer_requested', target: { type: 'agent', name: 'Bo Agent' } },
      { ...moment, kind: 'transferred', target: { type: 'category', name: null } },
      { ...moment, kind: 'ended', endedBy: 'absence' },
      { ...moment, kind: 'abandoned', endedBy: null },
      { ...moment, kind: 'rated', rating: 3 },
    ];
    for (const entry of told) expect(timelineEntrySchema.parse(entry)).toEqual(entry);
  });

  it('refuses words in place of data, and data a kind does not carry', () => {
    const refused = [
      { ...moment, kind: 'ended', endedBy: 'guest', detail: 'by guest' },
      { ...moment, kind: 'ended', endedBy: 'the guest' },
      { ...moment, kind: 'ended' },
      { ...moment, kind: 'transfer_requested', target: 'to Bo Agent' },
      { ...moment, kind: 'transferred', target: { type: 'team', name: 'Sales' } },
      { ...moment, kind: 'queued', endedBy: 'guest' },
      { ...moment, kind: 'rated', rating: '3/5' },
      { ...moment, kind: 'rated', rating: 6 },
    ];
    for (const entry of refused) expect(timelineEntrySchema.safeParse(entry).success).toBe(false);
  });
});
