import { describe, expect, it } from 'vitest';
import { offerableAgents, offerOf } from './round-robin.ts';

const createdAt = new Date('2026-11-21T10:00:00Z');
const after = (ms: number) => createdAt.getTime() + ms;

describe('offerOf', () => {
  it('offers each turn to the next available agent, starting from the call id', () => {
    const call = { id: 7, createdAt };
    const agents = [3, 4, 9];
    expect(offerOf(call, agents, 20_000, after(0))).toEqual({
      staffId: 4,
      until: new Date(after(20_000)),
    });
    expect(offerOf(call, agents, 20_000, after(19_999))?.staffId).toBe(4);
    expect(offerOf(call, agents, 20_000, after(20_000))).toEqual({
      staffId: 9,
      until: new Date(after(40_000)),
    });
    expect(offerOf(call, agents, 20_000, after(45_000))?.staffId).toBe(3);
    expect(offerOf({ id: 8, createdAt }, agents, 20_000, after(0))?.staffId).toBe(9);
  });

  it('offers to nobody when nobody is available, and never before the call began', () => {
    expect(offerOf({ id: 1, createdAt }, [], 20_000, after(5000))).toBeNull();
    expect(offerOf({ id: 1, createdAt }, [5], 20_000, after(-3000))).toEqual({
      staffId: 5,
      until: new Date(after(20_000)),
    });
  });
});

describe('offerableAgents', () => {
  it("keeps a category's calls to its own available agents", () => {
    expect(offerableAgents([3, 4, 9], [4, 9, 12])).toEqual([4, 9]);
  });

  it('offers to every available agent when the category names none, or none of its own is available', () => {
    expect(offerableAgents([3, 4, 9], undefined)).toEqual([3, 4, 9]);
    expect(offerableAgents([3, 4, 9], [12])).toEqual([3, 4, 9]);
    expect(offerableAgents([], [12])).toEqual([]);
  });

  it("offers a group's call to the group's members who serve the category, then to its other members", () => {
    expect(offerableAgents([3, 4, 9], [4, 9], [3, 9])).toEqual([9]);
    expect(offerableAgents([3, 4, 9], [4, 9], [3])).toEqual([3]);
    expect(offerableAgents([3, 4, 9], undefined, [4, 9])).toEqual([4, 9]);
  });

  it('falls back to the category rule when no member of the group is available', () => {
    expect(offerableAgents([3, 4, 9], [4], [12])).toEqual([4]);
    expect(offerableAgents([3, 4, 9], [12], [])).toEqual([3, 4, 9]);
    expect(offerableAgents([], [4], [4])).toEqual([]);
  });
});
