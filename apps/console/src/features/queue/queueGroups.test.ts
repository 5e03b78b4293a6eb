import { describe, expect, it } from 'vitest';
import { groupQueue, type QueueEntry } from './queueGroups.ts';

const CATEGORIES = [
  { id: 1, name: 'Sales' },
  { id: 2, name: 'Support' },
  { id: 3, name: 'Billing' },
];

/** A guest of `categoryId` who began waiting `secondsAgo` before noon. */
function entry(nick: string, categoryId: number, secondsAgo?: number): QueueEntry {
  const waitingSince =
    secondsAgo === undefined
      ? undefined
      : new Date(Date.parse('2026-11-26T12:00:00Z') - secondsAgo * 1000).toISOString();
  return { categoryId, guest: { nick, peer: undefined, waitingSince, position: 0 } };
}

const noGroups = () => undefined;
const names = (groups: ReturnType<typeof groupQueue>) =>
  groups.map((group) => [group.name, group.entries.map((e) => e.guest.nick)]);

describe('the queue grouped by category', () => {
  it('is empty without waiting guests', () => {
    expect(groupQueue([], CATEGORIES, {}, noGroups)).toEqual([]);
  });

  it("puts each line in the company's order, longest-waiting first, numbered in its line", () => {
    const groups = groupQueue(
      [entry('b1', 2, 10), entry('s1', 1, 5), entry('b2', 2, 90), entry('s2', 1, 30)],
      CATEGORIES,
      {},
      noGroups,
    );
    expect(names(groups)).toEqual([
      ['Sales', ['s2', 's1']],
      ['Support', ['b2', 'b1']],
    ]);
    expect(groups[1]?.entries.map((e) => e.guest.position)).toEqual([1, 2]);
    // The longest wait of a line counts from its first guest.
    expect(groups[1]?.oldestSince).toBe('2026-11-26T11:58:30.000Z');
    expect(groups.every((group) => !group.mine)).toBe(true);
  });

  it('puts a guest that announced no start last in its line', () => {
    const groups = groupQueue([entry('late', 1), entry('early', 1, 3)], CATEGORIES, {}, noGroups);
    expect(names(groups)).toEqual([['Sales', ['early', 'late']]]);
    expect(groups[0]?.oldestSince).toBe('2026-11-26T11:59:57.000Z');
  });

  it('shows the categories the agent serves first', () => {
    const groups = groupQueue(
      [entry('s', 1, 60), entry('b', 3, 5), entry('u', 2, 5)],
      CATEGORIES,
      { categoryIds: [3] },
      noGroups,
    );
    expect(groups.map((group) => [group.name, group.mine])).toEqual([
      ['Billing', true],
      ['Sales', false],
      ['Support', false],
    ]);
  });

  it("shows first a line where a guest picked one of the agent's assignment groups", () => {
    const picked: Record<string, string> = { u: 'vip' };
    const groups = groupQueue(
      [entry('s', 1, 60), entry('u', 2, 5)],
      CATEGORIES,
      { assignmentGroupIds: ['vip'] },
      (nick) => picked[nick],
    );
    expect(groups.map((group) => [group.name, group.mine])).toEqual([
      ['Support', true],
      ['Sales', false],
    ]);
  });

  it('keeps a category the company no longer lists, last and unnamed', () => {
    const groups = groupQueue([entry('x', 9, 100), entry('s', 1, 1)], CATEGORIES, {}, noGroups);
    expect(groups.map((group) => [group.categoryId, group.name])).toEqual([
      [1, 'Sales'],
      [9, ''],
    ]);
  });
});
