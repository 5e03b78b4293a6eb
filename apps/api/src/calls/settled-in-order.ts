/**
 * Waits for every promise, then answers their values, or throws the rejection of the first one
 * in `promises`' order: checks asked side by side (one round trip's wait instead of several)
 * still refuse with the same error whichever answer came back first.
 */
export async function settledInOrder<const T extends readonly unknown[]>(
  promises: T,
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const outcomes = await Promise.allSettled(promises);
  const values = outcomes.map((outcome) => {
    if (outcome.status === 'rejected') throw outcome.reason;
    return outcome.value;
  });
  return values as { -readonly [K in keyof T]: Awaited<T[K]> };
}
