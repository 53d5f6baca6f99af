import type { Collection, Db } from 'mongodb';
import type { Account, AccountsStore } from './accounts.js';
import { type DatabaseCalls, databaseCalls, isDuplicateKey } from './mongo.js';

/** How a lead came to be unlocked for an account. */
type UnlockSource = 'mcp' | 'app';

export interface UnlockDoc {
  account_id: string;
  lead_id: string;
  /** `pending` while an `enrich_lead` call is charging for it; only `done` unlocks count. */
  state: 'pending' | 'done';
  source: UnlockSource;
  /** The `enrich_lead` call holding a pending unlock; `null` once done. */
  claim_id: string | null;
  /** When the current claim was made, on the wall clock: how old claims are recognised as abandoned. */
  claimed_at: Date | null;
  charged_credits: number;
  created_at: Date;
  updated_at: Date;
}

/** The fields of a pending unlock that decide what may be done with it. */
export type PendingClaim = Pick<
  UnlockDoc,
  'account_id' | 'lead_id' | 'claim_id' | 'claimed_at' | 'created_at'
>;

/**
 * One document per (account, lead) unlock; the unique index makes an unlock happen at most once.
 * Every change is a single-document conditional write, so the protocol in src/billing/enrich.ts
 * holds on any MongoDB-compatible server without transactions.
 */
export class UnlocksStore {
  private readonly collection: Collection<UnlockDoc>;

  private readonly backend: DatabaseCalls;

  constructor(
    db: Db,
    /** Told before an account's first unlock, so `unlockedAmong` can skip accounts that have none. */
    private readonly accounts: AccountsStore,
  ) {
    this.backend = databaseCalls(db);
    this.collection = db.collection<UnlockDoc>('unlocks');
  }

  async ensureIndexes(): Promise<void> {
    await this.backend(() =>
      this.collection.createIndex({ account_id: 1, lead_id: 1 }, { unique: true, name: 'account_lead' }),
    );
  }

  /**
   * The ids among `leadIds` that the account has unlocked, for the `enriched` flag of cards. No
   * query at all for an account that has never unlocked a lead (`has_unlocks` false): from the
   * call's copy of the account, so another process's first unlock shows within IDENTITY_CACHE_MS.
   */
  async unlockedAmong(
    account: Pick<Account, '_id' | 'has_unlocks'>,
    leadIds: readonly string[],
  ): Promise<Set<string>> {
    if (leadIds.length === 0 || account.has_unlocks === false) return new Set();
    const accountId = account._id;
    const found = await this.backend(() =>
      this.collection
        .find(
          { account_id: accountId, lead_id: { $in: [...leadIds] }, state: 'done' },
          { projection: { lead_id: 1, _id: 0 } },
        )
        .toArray(),
    );
    return new Set(found.map((unlock) => unlock.lead_id));
  }

  async find(accountId: string, leadId: string): Promise<UnlockDoc | null> {
    return this.backend(() =>
      this.collection.findOne({ account_id: accountId, lead_id: leadId }, { projection: { _id: 0 } }),
    );
  }

  /** The account's pending unlocks claimed before `claimedBefore`: left behind by calls that died. */
  async abandonedClaims(accountId: string, claimedBefore: Date): Promise<UnlockDoc[]> {
    return this.backend(() =>
      this.collection
        .find(
          { account_id: accountId, state: 'pending', claimed_at: { $lt: claimedBefore } },
          { projection: { _id: 0 } },
        )
        .toArray(),
    );
  }

  /**
   * Starts an `enrich_lead` charge by inserting a pending unlock held by `claimId`. Returns false
   * when the unlock already exists (done, or pending under another call): the unique index lets
   * exactly one of any number of simultaneous claims in.
   */
  async claim(
    accountId: string,
    leadId: string,
    claimId: string,
    times: { now: Date; wallClock: Date },
  ): Promise<boolean> {
    await this.accounts.noteUnlocks(accountId);
    try {
      await this.backend(() =>
        this.collection.insertOne({
          account_id: accountId,
          lead_id: leadId,
          state: 'pending',
          source: 'mcp',
          claim_id: claimId,
          claimed_at: times.wallClock,
          charged_credits: 0,
          created_at: times.now,
          updated_at: times.now,
        }),
      );
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  /** Records the unlock as paid, only while `claimId` still holds it. False when the claim was lost. */
  async completeClaim(accountId: string, leadId: string, claimId: string, now: Date): Promise<boolean> {
    const result = await this.backend(() =>
      this.collection.updateOne(
        { account_id: accountId, lead_id: leadId, state: 'pending', claim_id: claimId },
        {
          $set: { state: 'done', claim_id: null, claimed_at: null, charged_credits: 1, updated_at: now },
        },
      ),
    );
    return result.modifiedCount === 1;
  }

  /** Removes a pending unlock, only while `claim` still holds it (a failed charge, or an abandoned claim). */
  async releaseClaim(claim: PendingClaim): Promise<void> {
    await this.backend(() =>
      this.collection.deleteOne({
        account_id: claim.account_id,
        lead_id: claim.lead_id,
        state: 'pending',
        claim_id: claim.claim_id,
      }),
    );
  }

  /**
   * Records an unlock made in the service's own app: free, and it makes later `enrich_lead` calls
   * free. An existing done unlock is kept as it is; a pending one becomes this free unlock, and the
   * call holding it finds its claim gone and refunds what it took.
   */
  async recordAppUnlock(accountId: string, leadId: string, now: Date): Promise<void> {
    await this.accounts.noteUnlocks(accountId);
    try {
      await this.backend(() =>
        this.collection.updateOne(
          { account_id: accountId, lead_id: leadId, state: { $ne: 'done' } },
          {
            $set: {
              state: 'done',
              source: 'app',
              claim_id: null,
              claimed_at: null,
              charged_credits: 0,
              updated_at: now,
            },
            $setOnInsert: { created_at: now },
          },
          { upsert: true },
        ),
      );
    } catch (error) {
      // The filter missed because the unlock is already done; the upsert's insert then collides.
      if (!isDuplicateKey(error)) throw error;
    }
  }
}
