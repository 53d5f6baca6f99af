import { type Collection, MongoServerError } from 'mongodb';

/**
 * Counters that must never pass a ceiling, however many server processes add to them at once.
 * Only single-document conditional updates are used (no transactions), so this holds on MongoDB,
 * on mongo-java-server and on FerretDB builds with atomic updates.
 */
export interface CounterDoc {
  _id: string;
  used: number;
  expires_at: Date;
  /** Ids of reservations not yet settled (see `addWithin`'s `journalId`); absent until one is made. */
  journal?: string[];
}

/** Fields stored once, when the counter is created (besides `used`, which starts at 0). */
export type CounterFields = { expires_at: Date } & Record<string, unknown>;

const DUPLICATE_KEY = 11000;
/** Every failed compare-and-set means another caller succeeded, so this is only reached under absurd load. */
const MAX_COMPARE_AND_SET_ATTEMPTS = 200;

/**
 * Adds `amount` unless `used` would pass `ceiling`. Returns the new `used`, or `null` when refused.
 * With `journalId`, the same atomic update records it in `journal`, so that `subtractJournalled`
 * can take the amount back at most once, whoever tries.
 */
export async function addWithin(
  counters: Collection<CounterDoc>,
  id: string,
  amount: number,
  ceiling: number,
  fieldsOnCreate: CounterFields,
  journalId?: string,
): Promise<number | null> {
  if (amount > ceiling) return null;
  const tryAdd = async () => {
    const updated = await counters.findOneAndUpdate(
      { _id: id, used: { $lte: ceiling - amount } },
      { $inc: { used: amount }, ...(journalId !== undefined && { $push: { journal: journalId } }) },
      { returnDocument: 'after' },
    );
    return updated?.used ?? null;
  };
  const used = await tryAdd();
  if (used !== null) return used;
  // The miss may only mean the counter does not exist yet; once it does, a second try is final.
  await createIfMissing(counters, id, fieldsOnCreate);
  return tryAdd();
}

/** Adds as much of `want` as fits under `ceiling`. Returns what was added (0 when full) and the new `used`. */
export async function addUpTo(
  counters: Collection<CounterDoc>,
  id: string,
  want: number,
  ceiling: number,
  fieldsOnCreate: CounterFields,
): Promise<{ added: number; used: number }> {
  const usedAfterAll = await addWithin(counters, id, want, ceiling, fieldsOnCreate);
  if (usedAfterAll !== null) return { added: want, used: usedAfterAll };
  for (let attempt = 0; attempt < MAX_COMPARE_AND_SET_ATTEMPTS; attempt++) {
    const current = await counters.findOne({ _id: id }, { projection: { used: 1 } });
    if (current === null) {
      // The first addition of the day when `want` alone passes the ceiling: addWithin refused it
      // without creating the counter, and a compare-and-set never matches a missing document.
      await createIfMissing(counters, id, fieldsOnCreate);
      continue;
    }
    const { used } = current;
    const added = Math.min(want, ceiling - used);
    if (added <= 0) return { added: 0, used };
    // Compare-and-set on the exact value read: a concurrent change makes this miss, and we re-read.
    const result = await counters.updateOne({ _id: id, used }, { $inc: { used: added } });
    if (result.modifiedCount === 1) return { added, used: used + added };
  }
  throw new Error(`Counter ${id} is under too much contention`);
}

/** Adds without a ceiling (unlimited quotas still count what was used). Returns the new `used`. */
export async function addUnbounded(
  counters: Collection<CounterDoc>,
  id: string,
  amount: number,
  fieldsOnCreate: CounterFields,
): Promise<number> {
  await createIfMissing(counters, id, fieldsOnCreate);
  const updated = await counters.findOneAndUpdate(
    { _id: id },
    { $inc: { used: amount } },
    { returnDocument: 'after' },
  );
  return updated?.used ?? amount;
}

/** Takes back `amount` added under `journalId`, if that entry is still open. True when it did. */
export async function subtractJournalled(
  counters: Collection<CounterDoc>,
  id: string,
  journalId: string,
  amount: number,
): Promise<boolean> {
  const result = await counters.updateOne(
    { _id: id, journal: journalId },
    { $inc: { used: -amount }, $pull: { journal: journalId } },
  );
  return result.modifiedCount === 1;
}

/** Closes the journal entry of an addition that is now final. */
export async function settleJournalled(
  counters: Collection<CounterDoc>,
  id: string,
  journalId: string,
): Promise<void> {
  await counters.updateOne({ _id: id }, { $pull: { journal: journalId } });
}

/**
 * Takes back `amount` that was added earlier; never below zero. Returns the new `used`, or `null`
 * when the counter holds less than `amount` and nothing was taken.
 */
export async function subtract(
  counters: Collection<CounterDoc>,
  id: string,
  amount: number,
): Promise<number | null> {
  const updated = await counters.findOneAndUpdate(
    { _id: id, used: { $gte: amount } },
    { $inc: { used: -amount } },
    { returnDocument: 'after', projection: { used: 1 } },
  );
  return updated?.used ?? null;
}

export async function readUsed(counters: Collection<CounterDoc>, id: string): Promise<number> {
  const current = await counters.findOne({ _id: id }, { projection: { used: 1 } });
  return current?.used ?? 0;
}

async function createIfMissing(
  counters: Collection<CounterDoc>,
  id: string,
  fieldsOnCreate: CounterFields,
): Promise<void> {
  try {
    await counters.updateOne({ _id: id }, { $setOnInsert: { ...fieldsOnCreate, used: 0 } }, { upsert: true });
  } catch (error) {
    // Two callers creating the same counter at once: one insert wins, which is all we need.
    if (!(error instanceof MongoServerError && error.code === DUPLICATE_KEY)) throw error;
  }
}
