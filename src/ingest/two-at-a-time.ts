/**
 * Requests of one ingest step two at a time: Elasticsearch answers one on each of its cores while
 * this process reads or writes the other (docs/performance.md, "Loading the feed").
 */

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
