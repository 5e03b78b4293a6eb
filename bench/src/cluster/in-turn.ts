/** Runs `work(0 … count-1)`, `concurrency` at a time; the wall time in seconds. */
export async function inTurn(
  count: number,
  concurrency: number,
  work: (i: number) => Promise<unknown>,
): Promise<number> {
  let next = 0;
  const startedAt = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < count; i = next++) await work(i);
    }),
  );
  return (performance.now() - startedAt) / 1000;
}
