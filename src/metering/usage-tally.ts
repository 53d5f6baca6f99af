import { Unavailable } from '../errors.js';
import type { Logger } from '../logger.js';
import type { CounterFields } from '../stores/bounded-counter.js';

/**
 * Adds `amount` to a counter at most once under `writeId`, however often it is retried, creating
 * the counter from `fields` if it is missing; answers the counter's `used` after.
 */
export type CounterWrite = (
  counterId: string,
  amount: number,
  writeId: string,
  fields: CounterFields | undefined,
) => Promise<number>;

/** How long after it is counted a unit is written to MongoDB (unless MongoDB is down). */
export const WRITE_COUNTS_AFTER_MS = 500;
/** How old the figure from MongoDB under a reported `used` may be. */
export const STORED_FIGURE_FRESH_MS = 1_000;

interface Tally {
  /** The counter's `used` as MongoDB last answered this process, and when (by the clock). */
  stored: number | undefined;
  storedAt: number;
  /** Units of calls still under way: written only once their call succeeds (`commit`). */
  held: number;
  /** Units of calls that succeeded, not in any write yet. */
  unsent: number;
  /**
   * The write of earlier units, under way (`done`) or failed and waiting to be sent again with the
   * same id, so that it never lands twice.
   */
  sending: { id: string; amount: number; done: Promise<void> | undefined } | undefined;
  /** What creates the counter if it is missing; unknown for a tally opened by a give-back. */
  fields: CounterFields | undefined;
}

/**
 * Units counted on quotas without a limit, written to their counters in batches. Such a counter
 * protects nothing, it only reports, so a busy process need not write every call's units as they
 * come: it adds them up per counter and writes the sum at most WRITE_COUNTS_AFTER_MS later, one
 * write per counter however many calls it covers. A call's units are held in memory until the call
 * has succeeded (`commit`) and only then join a write, so a call that fails is never written, even
 * by a process that dies before it could write a give-back. A `used` it reports is MongoDB's
 * figure, at most STORED_FIGURE_FRESH_MS old (older, it writes first and waits), plus what it
 * counted since; so another process's units show within about a second, as identity changes do. A
 * unit counted and not yet written is lost if the process dies (a clean stop writes everything
 * first: `writeAll`). Holds at most `maxCounters` tallies, each a few hundred bytes.
 */
export class UsageTally {
  private readonly tallies = new Map<string, Tally>();
  private writing: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: {
      write: CounterWrite;
      newWriteId: () => string;
      clock: () => number;
      maxCounters: number;
      /** Where a write that failed is told: retried in the background, or lost at a stop. */
      logger: Logger;
    },
  ) {}

  /**
   * Holds `units` on `counterId` for a call under way; returns its `used` after, as reported (the
   * call's own units included). Waits for a write only when this process has no fresh figure for
   * the counter; if that write fails, nothing is held and the error is thrown. The call then either
   * `commit`s the units or `release`s them.
   */
  async count(counterId: string, units: number, fields?: CounterFields): Promise<number> {
    const tally = this.tallyOf(counterId, fields);
    if (!this.isFresh(tally)) await this.send(counterId, tally);
    tally.held += units;
    return usedAsReported(tally);
  }

  /**
   * Gives back `units` held by a call under way (a call that failed, or the unused part of a page),
   * without waiting for MongoDB; returns the counter's `used` as reported after.
   */
  release(counterId: string, units: number): number {
    const tally = this.heldTally(counterId);
    tally.held -= units;
    return usedAsReported(tally);
  }

  /** Makes the `units` a call held final, once the call has succeeded: they are written within WRITE_COUNTS_AFTER_MS. */
  commit(counterId: string, units: number): void {
    const tally = this.heldTally(counterId);
    tally.held -= units;
    tally.unsent += units;
    this.writeLater();
  }

  /**
   * The `used` this process reports for `counterId`, as `count` would (MongoDB's figure at most
   * STORED_FIGURE_FRESH_MS old, plus what it counted since), read as one; `undefined` when it counts
   * nothing there. Adding what is not written yet to a figure read apart could count a write landing
   * in between twice.
   */
  async reported(counterId: string): Promise<number | undefined> {
    if (!this.tallies.has(counterId)) return undefined;
    return this.count(counterId, 0);
  }

  /** Writes everything counted, waiting for the writes; a clean stop calls this before closing MongoDB. */
  async writeAll(): Promise<void> {
    // Everything owed goes now: the write planned for later would find nothing to send.
    clearTimeout(this.writing);
    this.writing = undefined;
    await Promise.all(
      [...this.tallies].map(async ([counterId, tally]) => {
        try {
          while (owes(tally) || tally.sending !== undefined) await this.send(counterId, tally);
        } catch (error) {
          this.options.logger.error('lost counted quota units: MongoDB did not take them before the stop', {
            counter_id: counterId,
            units: unwritten(tally),
            error,
          });
        }
      }),
    );
  }

  private isFresh(tally: Tally): boolean {
    return tally.stored !== undefined && this.options.clock() - tally.storedAt <= STORED_FIGURE_FRESH_MS;
  }

  /** The tally holding a call's units: kept while anything is held (`forgetIdle`). */
  private heldTally(counterId: string): Tally {
    let tally = this.tallies.get(counterId);
    if (tally === undefined) {
      tally = emptyTally(undefined);
      this.tallies.set(counterId, tally);
    }
    return tally;
  }

  private tallyOf(counterId: string, fields: CounterFields | undefined): Tally {
    const known = this.tallies.get(counterId);
    if (known !== undefined) {
      known.fields ??= fields;
      return known;
    }
    if (this.tallies.size >= this.options.maxCounters) this.forgetIdle();
    // Every tally owes a write: MongoDB is not answering, and memory is not spent on more.
    if (this.tallies.size >= this.options.maxCounters) throw new Unavailable('database');
    const tally = emptyTally(fields);
    this.tallies.set(counterId, tally);
    return tally;
  }

  /** Sends what `tally` owes: the write that failed, again, or the units not sent yet. Waits for a write under way instead. */
  private send(counterId: string, tally: Tally): Promise<void> {
    if (tally.sending?.done !== undefined) return tally.sending.done;
    if (tally.sending === undefined) {
      tally.sending = { id: this.options.newWriteId(), amount: tally.unsent, done: undefined };
      tally.unsent = 0;
    }
    const sending = tally.sending;
    sending.done = this.options.write(counterId, sending.amount, sending.id, tally.fields).then(
      (used) => {
        tally.stored = used;
        tally.storedAt = this.options.clock();
        tally.sending = undefined;
      },
      (error: unknown) => {
        sending.done = undefined;
        throw error;
      },
    );
    return sending.done;
  }

  /** Drops the tallies that hold and owe nothing and whose figure is no longer fresh. */
  private forgetIdle(): void {
    for (const [counterId, tally] of this.tallies) {
      const idle = tally.held === 0 && !owes(tally) && tally.sending === undefined;
      if (idle && !this.isFresh(tally)) this.tallies.delete(counterId);
    }
  }

  /**
   * Writes what is owed WRITE_COUNTS_AFTER_MS from now, one write per counter, and again after that
   * while anything is owed (as after a failed write).
   */
  private writeLater(): void {
    if (this.writing !== undefined) return;
    this.writing = setTimeout(async () => {
      const owing = [...this.tallies].filter(([, tally]) => owes(tally));
      await Promise.all(
        owing.map(([counterId, tally]) =>
          this.send(counterId, tally).catch((error: unknown) => {
            this.options.logger.warn('could not write counted quota units; trying again', {
              counter_id: counterId,
              units: unwritten(tally),
              error,
            });
          }),
        ),
      );
      this.writing = undefined;
      this.forgetIdle();
      if ([...this.tallies.values()].some(owes)) this.writeLater();
    }, WRITE_COUNTS_AFTER_MS);
    // A timer never keeps a process alive: a clean stop calls writeAll itself.
    this.writing.unref();
  }
}

/** A tally with nothing counted and no figure from MongoDB yet. */
function emptyTally(fields: CounterFields | undefined): Tally {
  return {
    stored: undefined,
    storedAt: Number.NEGATIVE_INFINITY,
    held: 0,
    unsent: 0,
    sending: undefined,
    fields,
  };
}

/** The `used` this process reports: MongoDB's figure, plus what it counted since, held units included. */
function usedAsReported(tally: Tally): number {
  return (tally.stored ?? 0) + unwritten(tally) + tally.held;
}

/** Units counted here that MongoDB has not confirmed: not sent yet, or in a write not answered. */
function unwritten(tally: Tally): number {
  return tally.unsent + (tally.sending?.amount ?? 0);
}

function owes(tally: Tally): boolean {
  return tally.unsent !== 0 || (tally.sending !== undefined && tally.sending.done === undefined);
}
