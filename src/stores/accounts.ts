import { type Collection, type Db, MongoServerError } from 'mongodb';
import { randomBase62 } from '../auth/random.js';
import { InvalidArgument } from '../errors.js';
import {
  type AccountPlanFields,
  PLANS,
  type PlanName,
  type QuotaKey,
  type QuotaLimit,
  type SubscriptionStatus,
} from '../plans.js';
import { databaseBackend } from './mongo.js';

export interface Account extends AccountPlanFields {
  _id: string;
  email: string;
  /** Monthly enrichment credits; renewed on `credits_resets_at`. */
  credits_remaining: number;
  credits_resets_at: Date;
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
const DUPLICATE_KEY = 11000;

export class AccountsStore {
  private readonly accounts: Collection<Account>;

  constructor(db: Db) {
    this.accounts = db.collection<Account>(COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await databaseBackend(() => this.accounts.createIndex({ email: 1 }, { unique: true }));
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
      credits_resets_at: addOneMonthUtc(input.now),
      created_at: input.now,
      updated_at: input.now,
    };
    try {
      await databaseBackend(() => this.accounts.insertOne(account));
    } catch (error) {
      if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) {
        throw new InvalidArgument('email', `An account with the email ${account.email} already exists.`);
      }
      throw error;
    }
    return account;
  }

  async findById(accountId: string): Promise<Account | null> {
    return databaseBackend(() => this.accounts.findOne({ _id: accountId }));
  }

  /** Applies an operator's changes; quota overrides are merged key by key. Returns `null` for an unknown account. */
  async update(accountId: string, changes: AccountChanges, now: Date): Promise<Account | null> {
    const { quota_overrides, ...plainChanges } = changes;
    const overrideChanges = Object.fromEntries(
      Object.entries(quota_overrides ?? {}).map(([quota, limit]) => [`quota_overrides.${quota}`, limit]),
    );
    return databaseBackend(() =>
      this.accounts.findOneAndUpdate(
        { _id: accountId },
        { $set: { ...plainChanges, ...overrideChanges, updated_at: now } },
        { returnDocument: 'after' },
      ),
    );
  }
}

/** Credits renew monthly from the day the account was created; the day is clamped to short months. */
function addOneMonthUtc(from: Date): Date {
  const next = new Date(from);
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const daysInNextMonth = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(from.getUTCDate(), daysInNextMonth));
  return next;
}
