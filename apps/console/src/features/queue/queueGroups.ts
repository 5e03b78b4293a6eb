import type { WaitingGuest } from '@frontdesk/chat';

/** A waiting guest and the category whose line it stands in. */
export type QueueEntry = { guest: WaitingGuest; categoryId: number };

/** One category's line in the agent's queue. */
export type QueueGroup = {
  categoryId: number;
  name: string;
  /** The agent serves the category, or one of its guests picked an assignment group of theirs. */
  mine: boolean;
  /** Longest-waiting first; `position` is the guest's place in this line. */
  entries: QueueEntry[];
  /** When the line's first guest began waiting (its longest wait counts up from it). */
  oldestSince: string | undefined;
};

/** What the agent serves (the sign-in's `user`); absent lists: the agent is told nothing. */
export type Served = { categoryIds?: readonly number[]; assignmentGroupIds?: readonly string[] };

/** When a guest began waiting; one that announced no time queues last. */
const sinceOf = (guest: WaitingGuest): number =>
  guest.waitingSince ? Date.parse(guest.waitingSince) : Number.POSITIVE_INFINITY;

/**
 * The queue by category (issue 19 item 5): one group per category with a guest waiting, its
 * guests longest-waiting first and numbered in their line. The agent's own groups come first —
 * the categories they serve and those where a guest picked one of their assignment groups —
 * then the others, each set in the company's order of categories.
 */
export function groupQueue(
  entries: readonly QueueEntry[],
  categories: readonly { id: number; name: string }[],
  served: Served,
  groupOf: (nick: string) => string | undefined,
): QueueGroup[] {
  const myCategories = new Set(served.categoryIds ?? []);
  const myGroups = new Set(served.assignmentGroupIds ?? []);
  const order = new Map(categories.map((category, index) => [category.id, index]));
  const lines = new Map<number, QueueEntry[]>();
  for (const entry of entries) {
    lines.set(entry.categoryId, [...(lines.get(entry.categoryId) ?? []), entry]);
  }
  const groups = [...lines].map(([categoryId, line]): QueueGroup => {
    const sorted = [...line]
      .sort((a, b) => sinceOf(a.guest) - sinceOf(b.guest))
      .map((entry, index) => ({ ...entry, guest: { ...entry.guest, position: index + 1 } }));
    const picked = sorted.some((entry) => {
      const group = groupOf(entry.guest.nick);
      return group !== undefined && myGroups.has(group);
    });
    return {
      categoryId,
      name: categories.find((category) => category.id === categoryId)?.name ?? '',
      mine: myCategories.has(categoryId) || picked,
      entries: sorted,
      oldestSince: sorted[0]?.guest.waitingSince,
    };
  });
  const rank = (group: QueueGroup) => order.get(group.categoryId) ?? Number.MAX_SAFE_INTEGER;
  return groups.sort(
    (a, b) => Number(b.mine) - Number(a.mine) || rank(a) - rank(b) || a.categoryId - b.categoryId,
  );
}
