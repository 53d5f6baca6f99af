import type { Collection, Db } from 'mongodb';
import { randomBase62 } from '../auth/random.js';
import { nextCreditRenewal } from '../domain/calendar.js';
import { InvalidArgument } from '../errors.js';
import {
  type AccountPlanFields,
  PLANS,
  type PlanName,
  type QuotaKey,
  type QuotaLimit,
  type SubscriptionStatus,
} from '../plans.js';
import { FreshCache, type Freshness, NOT_CACHED } from './fresh-cache.js';
import { type DatabaseCalls, databaseCalls, isDuplicateKey } from './mongo.js';

export interface Account extends AccountPlanFields {
  _id: string;
  email: string;
  /** Monthly enrichment credits; renewed on `credits_resets_at`. */
  credits_remaining: number;
  credits_resets_at: Date;
  /**
   * Claims of `enrich_lead` calls that took a credit and have not yet settled: the journal that
   * lets a refund happen at most once, whoever attempts it (see src/billing/enrich.ts).
   */
  credit_claims: string[];
  /**
   * `false` while the account has never unlocked a lead, so the cards it is shown need no unlock
   * lookup; set to `true` before its first unlock is claimed. Absent on accounts made before the
   * field existed, which are looked up as before.
   */
  has_unlocks?: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface AccountChanges {
  plan?: PlanName;
  subscription_status?: SubscriptionStatus;
  credits_remaining?: number;
  quota_overrides?: Partial<Record<QuotaKey, QuotaLimit>>;
  calls_per_minute_override?: number | null;
}

const COLLECTION = 'accounts';

export class AccountsStore {
  private readonly accounts: Collection<Account>;
  /** Accounts as `/mcp` reads them on every call: plan, status, limits (see `FreshCache`). */
  private readonly recent: FreshCache<Account>;

  private readonly backend: DatabaseCalls;

  constructor(db: Db, freshness: Freshness = NOT_CACHED) {
    this.backend = databaseCalls(db);
    this.accounts = db.collection<Account>(COLLECTION);
    this.recent = new FreshCache(freshness);
  }

  async ensureIndexes(): Promise<void> {
    await this.backend(() => this.accounts.createIndex({ email: 1 }, { unique: true }));
  }

  async create(input: {
    email: string;
    plan: PlanName;
    subscription_status: SubscriptionStatus;
    now: Date;
  }): Promise<Account> {
    const account: Account = {
      _id: `acc_${randomBase62(16)}`,
      email: input.email.trim().toLowerCase(),
      plan: input.plan,
      subscription_status: input.subscription_status,
      quota_overrides: {},
      calls_per_minute_override: null,
      credits_remaining: PLANS[input.plan].monthly_credits,
      credits_resets_at: nextCreditRenewal(input.now, input.now),
      credit_claims: [],
      has_unlocks: false,
      created_at: input.now,
      updated_at: input.now,
    };
    try {
      await this.backend(() => this.accounts.insertOne(account));
    } catch (error) {
      if (isDuplicateKey(error)) {
        throw new InvalidArgument('email', `An account with the email ${account.email} already exists.`);
      }
      throw error;
    }
    return account;
  }

  async findById(accountId: string): Promise<Account | null> {
    return this.backend(() => this.accounts.findOne({ _id: accountId }));
  }

  /** `findById` as read at most `Freshness.maxAgeMs` ago, by this process or another call. */
  async findByIdRecent(accountId: string): Promise<Account | null> {
    return this.recent.get(accountId, () => this.findById(accountId));
  }

  async findByEmail(email: string): Promise<Account | null> {
    return this.backend(() => this.accounts.findOne({ email: email.trim().toLowerCase() }));
  }

  /** Applies an operator's changes; quota overrides are merged key by key. Returns `null` for an unknown account. */
  async update(accountId: string, changes: AccountChanges, now: Date): Promise<Account | null> {
    const { quota_overrides, ...plainChanges } = changes;
    const overrideChanges = Object.fromEntries(
      Object.entries(quota_overrides ?? {}).map(([quota, limit]) => [`quota_overrides.${quota}`, limit]),
    );
    const updated = await this.backend(() =>
      this.accounts.findOneAndUpdate(
        { _id: accountId },
        { $set: { ...plainChanges, ...overrideChanges, updated_at: now } },
        { returnDocument: 'after' },
      ),
    );
    // After the write, so that no read from before it is kept.
    this.recent.forget(accountId);
    return updated;
  }

  /** Records that the account has (or is about to have) an unlock; a no-op once it is recorded. */
  async noteUnlocks(accountId: string): Promise<void> {
    // The flag only ever goes from false to true (or is absent, on older accounts, and then never
    // set): a copy of any age that does not say false needs no write.
    const copy = this.recent.peek(accountId);
    if (copy !== undefined && copy.has_unlocks !== false) return;
    const { modifiedCount } = await this.backend(() =>
      this.accounts.updateOne({ _id: accountId, has_unlocks: false }, { $set: { has_unlocks: true } }),
    );
    if (modifiedCount === 1) this.recent.forget(accountId);
  }

  /**
   * Renews the credits of an account whose renewal date has passed: sets them to the plan's
   * allowance (unused credits do not roll over) and moves the date to the next renewal. The update
   * is conditional on the renewal date it replaces, so however many calls see the date pass, the
   * credits renew once. Claims still open are dropped: their credit belonged to the old month, so
   * refunding it into the new one would be a gift. Returns the account as it now is.
   */
  async renewCreditsIfDue(account: Account, now: Date): Promise<Account> {
    if (account.credits_resets_at.getTime() > now.getTime()) return account;
    const renewed = await this.backend(() =>
      this.accounts.findOneAndUpdate(
        { _id: account._id, credits_resets_at: account.credits_resets_at },
        {
          $set: {
            credits_remaining: PLANS[account.plan].monthly_credits,
            credits_resets_at: nextCreditRenewal(account.created_at, now),
            credit_claims: [],
            updated_at: now,
          },
        },
        { returnDocument: 'after' },
      ),
    );
    // Another call renewed first (or the account is gone): read what it left.
    return renewed ?? (await this.findById(account._id)) ?? account;
  }

  /**
   * Takes one credit, recording `claimId` in the same atomic update, unless none is left.
   * Returns the account after the charge, or `null` when it had no credit.
   */
  async takeCredit(accountId: string, claimId: string): Promise<Account | null> {
    return this.backend(() =>
      this.accounts.findOneAndUpdate(
        { _id: accountId, credits_remaining: { $gte: 1 } },
        { $inc: { credits_remaining: -1 }, $push: { credit_claims: claimId } },
        { returnDocument: 'after' },
      ),
    );
  }

  /** Gives back the credit taken under `claimId`, if it is still open: at most once, whoever calls. */
  async refundCredit(accountId: string, claimId: string): Promise<boolean> {
    const result = await this.backend(() =>
      this.accounts.updateOne(
        { _id: accountId, credit_claims: claimId },
        { $inc: { credits_remaining: 1 }, $pull: { credit_claims: claimId } },
      ),
    );
    return result.modifiedCount === 1;
  }

  /** Closes `claimId` once its unlock is recorded: the credit is spent for good. */
  async settleCredit(accountId: string, claimId: string): Promise<void> {
    await this.backend(() =>
      this.accounts.updateOne({ _id: accountId }, { $pull: { credit_claims: claimId } }),
    );
  }
}
