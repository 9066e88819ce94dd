/** Runs `each` on every item, at most `concurrency` at a time, in order of start; the runs share one iterator. */
export async function eachAtOnce<T>(
  items: Iterable<T>,
  concurrency: number,
  each: (item: T) => Promise<void>,
): Promise<void> {
  const iterator = items[Symbol.iterator]();
  const run = async (): Promise<void> => {
    for (let next = iterator.next(); !next.done; next = iterator.next()) await each(next.value);
  };
  await Promise.all(Array.from({ length: concurrency }, run));
}
