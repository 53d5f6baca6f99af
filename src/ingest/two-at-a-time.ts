/**
 * Requests of one ingest step, in batches made as they are needed and sent two at a time:
 * Elasticsearch answers one on each of its cores while this process reads or writes the other
 * (docs/performance.md, "Loading the feed").
 */

/**
 * `items` in arrays of at most `size` items whose weights add up to at most `budget` (an item
 * heavier than that goes alone), made as they are asked for: a lazy source stays lazy.
 */
export function* chunks<T>(
  items: Iterable<T>,
  size: number,
  weigh: (item: T) => number = () => 0,
  budget = Number.POSITIVE_INFINITY,
): Generator<T[]> {
  let chunk: T[] = [];
  let weight = 0;
  for (const item of items) {
    const itemWeight = weigh(item);
    if (chunk.length > 0 && weight + itemWeight > budget) {
      yield chunk;
      chunk = [];
      weight = 0;
    }
    chunk.push(item);
    weight += itemWeight;
    if (chunk.length === size) {
      yield chunk;
      chunk = [];
      weight = 0;
    }
  }
  if (chunk.length > 0) yield chunk;
}

/**
 * `work` on each item, two at a time. After a failure no further item is started; the first
 * failure is thrown once nothing is running any more, so no write lands after the caller moved on.
 */
export async function twoAtATime<T>(items: Iterable<T>, work: (item: T) => Promise<void>): Promise<void> {
  const next = items[Symbol.iterator]();
  let failed = false;
  const worker = async () => {
    for (let item = next.next(); !item.done && !failed; item = next.next()) {
      try {
        await work(item.value);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await allDone([worker(), worker()]);
}

/** Waits for every promise to settle, then throws the first failure, if any. */
export async function allDone(promises: Promise<void>[]): Promise<void> {
  const outcomes = await Promise.allSettled(promises);
  const failure = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failure) throw failure.reason;
}
