import type { Collection } from 'mongodb';
import { isDuplicateKey } from './mongo.js';

/**
 * Counters that must never pass a ceiling, however many server processes add to them at once.
 * Only single-document conditional updates are used (no transactions), so this holds on MongoDB,
 * on mongo-java-server and on FerretDB builds with atomic updates.
 */
export interface CounterDoc {
  _id: string;
  used: number;
  expires_at: Date;
  /**
   * Ids of reservations not yet settled (see `JournalEntry`); absent until one is made. Unbounded,
   * because an entry may be dropped only when its reservation is settled or cancelled.
   */
  journal?: string[];
  /**
   * Each process's latest charges, by its journal (`journalOf`), oldest first, each with the units
   * it still holds (`chargeEntry`): what lets a charge be taken back at most once (see
   * `takeBackCharge`). Absent until one is made. (Counters written before the journals were per
   * process hold one `charges` array and one `cancelled` array instead, which nothing reads any
   * more: a new field, so processes of both versions can run side by side during a deploy.)
   */
  charge_journals?: Record<string, string[]>;
  /**
   * Ids of charges given up without knowing whether they landed (`cancelCharge`), by journal: such
   * a charge can no longer land, however late its command reaches the server. The latest
   * CHARGE_JOURNAL_LENGTH of each.
   */
  cancelled_charges?: Record<string, string[]>;
}

/**
 * A charge's journal entry: `<charge id>:<units it holds>`, one short string. Every metered call
 * rewrites its counter with the whole journal, and a string costs the database far less to read
 * and write than a `{ id, units }` sub-document (docs/performance.md, "The charge journal"). An
 * entry is matched whole, so a condition on it is a condition on both the id and the units.
 */
export function chargeEntry(chargeId: string, units: number): string {
  return `${chargeId}:${units}`;
}

/**
 * The journal a charge is recorded in: the first JOURNAL_KEY_LENGTH characters of its id, which name
 * the process that made it (src/metering/quota-counters.ts, `newChargeId`). Each process's charges
 * are trimmed only by its own later ones: a process cut off from MongoDB makes none meanwhile, so
 * the entries its refunds will look for when it is back stay, however busy the other processes
 * are. (One journal for all let a busy process push out the entry of a charge that another, whose
 * refunds waited for MongoDB, had made: that charge could no longer be given back.)
 */
export function journalOf(chargeId: string): string {
  return chargeId.slice(0, JOURNAL_KEY_LENGTH);
}

/** Characters of a charge id that name its journal: base64url, so a field name MongoDB accepts. */
const JOURNAL_KEY_LENGTH = 12;

const chargesOf = (chargeId: string) => `charge_journals.${journalOf(chargeId)}`;
const cancelledOf = (chargeId: string) => `cancelled_charges.${journalOf(chargeId)}`;

/** The id and units of a journal entry written by `chargeEntry`; charge ids never contain ':'. */
export function parseChargeEntry(entry: string): { id: string; units: number } {
  const at = entry.lastIndexOf(':');
  return { id: entry.slice(0, at), units: Number(entry.slice(at + 1)) };
}

/**
 * How an addition is recorded on the counter, in the same atomic update as the addition itself,
 * so it can be taken back at most once, whoever tries and however often:
 * - `reservation`: its id is pushed onto `journal` until it is settled (`settleJournalled`) or
 *   cancelled (`subtractJournalled`); used by enrich_lead, whose charge spans several documents.
 * - `charge`: its entry (`chargeEntry`) is pushed onto its process's journal in `charge_journals`
 *   (`journalOf`), of which only the latest CHARGE_JOURNAL_LENGTH are kept, so that a successful
 *   call needs no second write to close its entry. The two kinds stay apart so that trimming a
 *   charge journal never drops an open reservation.
 */
export type JournalEntry = { reservation: string } | { charge: string };

/**
 * How many charges a counter remembers per journal, that is per process (about 27 bytes each in
 * BSON). A charge can be taken back while fewer than this many later charges of the same counter
 * (account, quota, day) were made by the same process: at 120 calls a minute, the fastest plan,
 * that is two minutes, against the seconds a failed call takes to refund itself. A refund retried
 * in the background waits for MongoDB, and so does every charge of its process meanwhile; once
 * MongoDB answers, the queued refunds are retried at once (src/metering/quota-counters.ts).
 */
export const CHARGE_JOURNAL_LENGTH = 256;

/** The `$push` that records `entry` for an addition of `amount` (nothing without an entry). */
function recordOf(entry: JournalEntry | undefined, amount: number) {
  if (entry === undefined) return {};
  if ('reservation' in entry) return { $push: { journal: entry.reservation } };
  return {
    $push: {
      [chargesOf(entry.charge)]: {
        $each: [chargeEntry(entry.charge, amount)],
        $slice: -CHARGE_JOURNAL_LENGTH,
      },
    },
  };
}

/** The condition that keeps a cancelled charge (`cancelCharge`) from landing; none for other additions. */
function unlessCancelled(entry: JournalEntry | undefined) {
  return entry !== undefined && 'charge' in entry
    ? { [cancelledOf(entry.charge)]: { $ne: entry.charge } }
    : {};
}

/** Fields stored once, when the counter is created (besides `used`, which starts at 0). */
export type CounterFields = { expires_at: Date } & Record<string, unknown>;

/** Every failed compare-and-set means another caller succeeded, so this is only reached under absurd load. */
const MAX_COMPARE_AND_SET_ATTEMPTS = 200;

/**
 * Adds `amount` unless `used` would pass `ceiling`. Returns the new `used`, or `null` when refused.
 * With `entry`, the same atomic update records the addition (see `JournalEntry`).
 */
export async function addWithin(
  counters: Collection<CounterDoc>,
  id: string,
  amount: number,
  ceiling: number,
  fieldsOnCreate: CounterFields,
  entry?: JournalEntry,
): Promise<number | null> {
  if (amount > ceiling) return null;
  const tryAdd = async () => {
    const updated = await counters.findOneAndUpdate(
      { _id: id, used: { $lte: ceiling - amount }, ...unlessCancelled(entry) },
      { $inc: { used: amount }, ...recordOf(entry, amount) },
      { returnDocument: 'after', projection: { used: 1 } },
    );
    return updated?.used ?? null;
  };
  const used = await tryAdd();
  if (used !== null) return used;
  // The miss may only mean the counter does not exist yet; once it does, a second try is final.
  await createIfMissing(counters, id, fieldsOnCreate);
  return tryAdd();
}

/**
 * Adds as much of `want` as fits under `ceiling`. Returns what was added (0 when full) and the new
 * `used`. With `entry`, the update that adds records the amount it actually added; nothing is
 * recorded when nothing was added.
 */
export async function addUpTo(
  counters: Collection<CounterDoc>,
  id: string,
  want: number,
  ceiling: number,
  fieldsOnCreate: CounterFields,
  entry?: JournalEntry,
): Promise<{ added: number; used: number }> {
  const usedAfterAll = await addWithin(counters, id, want, ceiling, fieldsOnCreate, entry);
  if (usedAfterAll !== null) return { added: want, used: usedAfterAll };
  // Only this charge's own list of cancellations is read, not every process's.
  const charge = entry !== undefined && 'charge' in entry ? entry.charge : undefined;
  for (let attempt = 0; attempt < MAX_COMPARE_AND_SET_ATTEMPTS; attempt++) {
    const current = await counters.findOne(
      { _id: id },
      { projection: { used: 1, ...(charge !== undefined && { [cancelledOf(charge)]: 1 }) } },
    );
    if (current === null) {
      // The first addition of the day when `want` alone passes the ceiling: addWithin refused it
      // without creating the counter, and a compare-and-set never matches a missing document.
      await createIfMissing(counters, id, fieldsOnCreate);
      continue;
    }
    const { used } = current;
    const added = Math.min(want, ceiling - used);
    const cancelled =
      charge !== undefined && current.cancelled_charges?.[journalOf(charge)]?.includes(charge);
    if (added <= 0 || cancelled) return { added: 0, used };
    // Compare-and-set on the exact value read: a concurrent change makes this miss, and we re-read.
    const result = await counters.updateOne(
      { _id: id, used, ...unlessCancelled(entry) },
      { $inc: { used: added }, ...recordOf(entry, added) },
    );
    if (result.modifiedCount === 1) return { added, used: used + added };
  }
  throw new Error(`Counter ${id} is under too much contention`);
}

/**
 * Adds `amount` (which may be negative) without a ceiling, at most once under `writeId` however
 * often it is retried: the addition is journalled in `charge_journals` in the same update, which
 * is conditional on that entry not being there yet, so a retry after an answer that was lost adds
 * nothing twice (while fewer than CHARGE_JOURNAL_LENGTH later charges of its journal were made).
 * Returns the new `used`. A counter that does not exist is created for a positive amount; there is
 * nothing to take a negative one from.
 */
export async function addUnboundedOnce(
  counters: Collection<CounterDoc>,
  id: string,
  amount: number,
  writeId: string,
  fieldsOnCreate: CounterFields | undefined,
): Promise<number> {
  // Nothing to add: only the figure is wanted.
  if (amount === 0) return readUsed(counters, id);
  const entry = chargeEntry(writeId, amount);
  const add = async () =>
    (
      await counters.findOneAndUpdate(
        { _id: id, [chargesOf(writeId)]: { $ne: entry } },
        { $inc: { used: amount }, ...recordOf({ charge: writeId }, amount) },
        { returnDocument: 'after', projection: { used: 1 } },
      )
    )?.used;
  // One round trip once the counter exists; a miss means the entry is there already (an earlier
  // try landed) or the counter is not.
  const added = await add();
  if (added !== undefined) return added;
  const landed = await counters.findOne(
    { _id: id, [chargesOf(writeId)]: entry },
    { projection: { used: 1 } },
  );
  if (landed !== null) return landed.used;
  if (amount <= 0 || fieldsOnCreate === undefined) return 0;
  await createIfMissing(counters, id, fieldsOnCreate);
  return (await add()) ?? readUsed(counters, id);
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
 * Makes sure the charge `chargeId` can no longer land: recorded on the counter (created from
 * `fieldsOnCreate` if missing), where every charge's update checks it. For a charge given up
 * without an answer: its command may still reach the server later (stalled in the network, or
 * queued in a backend that hangs), so `takeBackCharge` alone, which finds no entry yet, would leave
 * it to land for good. After this, the charge has either landed already, and `takeBackCharge` finds
 * its entry, or never will.
 */
export async function cancelCharge(
  counters: Collection<CounterDoc>,
  id: string,
  chargeId: string,
  fieldsOnCreate: CounterFields,
): Promise<void> {
  const cancel = (upsert: boolean) =>
    counters.updateOne(
      { _id: id },
      {
        $push: { [cancelledOf(chargeId)]: { $each: [chargeId], $slice: -CHARGE_JOURNAL_LENGTH } },
        ...(upsert && { $setOnInsert: { ...fieldsOnCreate, used: 0 } }),
      },
      { upsert },
    );
  try {
    await cancel(true);
  } catch (error) {
    // Created by another caller at the same moment: it is there now.
    if (!isDuplicateKey(error)) throw error;
    await cancel(false);
  }
}

/**
 * Takes back what the charge `chargeId` still holds, and closes its entry, in one update that is
 * conditional on the entry being there with exactly that amount: however many processes try, and
 * whether or not an earlier attempt's answer was lost, the amount comes back once. `knownUnits`
 * saves the read when the caller knows what the entry holds; when the entry holds something else
 * (a give-back whose answer was lost) or the outcome of the charge is unknown, the entry is read
 * first. Returns what was taken back: 0 when there is no entry (the charge never landed, was
 * already taken back, or was trimmed from the journal).
 */
export async function takeBackCharge(
  counters: Collection<CounterDoc>,
  id: string,
  chargeId: string,
  knownUnits: number | null,
): Promise<number> {
  let units = knownUnits;
  for (let attempt = 0; attempt < MAX_COMPARE_AND_SET_ATTEMPTS; attempt++) {
    if (units === null) {
      const current = await counters.findOne({ _id: id }, { projection: { [chargesOf(chargeId)]: 1 } });
      const entry = current?.charge_journals?.[journalOf(chargeId)]
        ?.map(parseChargeEntry)
        .find((charge) => charge.id === chargeId);
      if (entry === undefined) return 0;
      units = entry.units;
    }
    const entry = chargeEntry(chargeId, units);
    const result = await counters.updateOne(
      { _id: id, [chargesOf(chargeId)]: entry },
      { $inc: { used: -units }, $pull: { [chargesOf(chargeId)]: entry } },
    );
    if (result.modifiedCount === 1) return units;
    // Gone, or holding another amount than thought: look again.
    units = null;
  }
  throw new Error(`Charge ${chargeId} on counter ${id} is under too much contention`);
}

/**
 * Gives back `amount` of the `heldUnits` the charge `chargeId` holds, and lowers its entry by as
 * much, in one update conditional on the entry holding exactly `heldUnits`: a later
 * `takeBackCharge` then returns only the rest. Returns the new `used`, or `null` when no such entry
 * is there.
 */
export async function giveBackPartOfCharge(
  counters: Collection<CounterDoc>,
  id: string,
  chargeId: string,
  heldUnits: number,
  amount: number,
): Promise<number | null> {
  const updated = await counters.findOneAndUpdate(
    { _id: id, [chargesOf(chargeId)]: chargeEntry(chargeId, heldUnits) },
    {
      $inc: { used: -amount },
      $set: { [`${chargesOf(chargeId)}.$`]: chargeEntry(chargeId, heldUnits - amount) },
    },
    { returnDocument: 'after', projection: { used: 1 } },
  );
  return updated?.used ?? null;
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
    if (!isDuplicateKey(error)) throw error;
  }
}
