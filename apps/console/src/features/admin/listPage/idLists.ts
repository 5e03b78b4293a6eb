/** Whether two lists of ids hold the same ids, in whatever order (a checkbox group's edit). */
export const sameIds = <Id>(a: readonly Id[], b: readonly Id[]): boolean =>
  a.length === b.length && a.every((id) => b.includes(id));

/** A list of ids with `id` added (its checkbox `checked`) or taken out. */
export const toggled = <Id>(ids: readonly Id[], id: Id, checked: boolean): Id[] =>
  checked ? [...ids, id] : ids.filter((other) => other !== id);
