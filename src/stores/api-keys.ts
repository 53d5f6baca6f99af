import type { Collection, Db } from 'mongodb';
import { displayPrefix, generateApiKey, hashApiKey } from '../auth/api-key-format.js';
import { randomBase62 } from '../auth/random.js';
import type { Scope } from '../auth/scopes.js';
import { FreshCache, type Freshness, NOT_CACHED } from './fresh-cache.js';
import { type DatabaseCalls, databaseCalls } from './mongo.js';

/** The key itself is never stored: only its SHA-256 and a short prefix to recognise it by. */
export interface ApiKeyRecord {
  _id: string;
  account_id: string;
  hash: string;
  prefix: string;
  scopes: Scope[];
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const COLLECTION = 'api_keys';
/** `last_used_at` is for operators; minute precision is plenty and spares a write per call. */
const LAST_USED_PRECISION_MS = 60_000;

export class ApiKeysStore {
  private readonly keys: Collection<ApiKeyRecord>;
  /** Keys by hash, as `/mcp` checks them on every call (see `FreshCache`). */
  private readonly recent: FreshCache<ApiKeyRecord>;

  private readonly backend: DatabaseCalls;

  constructor(db: Db, freshness: Freshness = NOT_CACHED) {
    this.backend = databaseCalls(db);
    this.keys = db.collection<ApiKeyRecord>(COLLECTION);
    this.recent = new FreshCache(freshness);
  }

  async ensureIndexes(): Promise<void> {
    await this.backend(async () => {
      await this.keys.createIndex({ hash: 1 }, { unique: true });
      await this.keys.createIndex({ account_id: 1 });
    });
  }

  /** Creates a key; the returned `key` is the only time it exists in clear. */
  async create(
    accountId: string,
    scopes: Scope[],
    now: Date,
  ): Promise<{ key: string; record: ApiKeyRecord }> {
    const key = generateApiKey();
    const record: ApiKeyRecord = {
      _id: `key_${randomBase62(16)}`,
      account_id: accountId,
      hash: hashApiKey(key),
      prefix: displayPrefix(key),
      scopes,
      created_at: now,
      last_used_at: null,
      revoked_at: null,
    };
    await this.backend(() => this.keys.insertOne(record));
    return { key, record };
  }

  /** The key's record as read at most `Freshness.maxAgeMs` ago, by this process or another call. */
  async findByKeyRecent(key: string): Promise<ApiKeyRecord | null> {
    const hash = hashApiKey(key);
    return this.recent.get(hash, () => this.backend(() => this.keys.findOne({ hash })));
  }

  /** The account's keys, newest first, revoked ones included. */
  async listForAccount(accountId: string): Promise<ApiKeyRecord[]> {
    return this.backend(() => this.keys.find({ account_id: accountId }).sort({ created_at: -1 }).toArray());
  }

  /**
   * Returns false when no such key exists (in `accountId`, when given: the account pages revoke
   * only their own keys); revoking twice keeps the first revocation time.
   */
  async revoke(keyId: string, now: Date, accountId?: string): Promise<boolean> {
    const key = { _id: keyId, ...(accountId !== undefined && { account_id: accountId }) };
    return this.backend(async () => {
      const result = await this.keys.updateOne({ ...key, revoked_at: null }, { $set: { revoked_at: now } });
      // After the write, so that no read from before it is kept.
      this.recent.forgetWhere((_hash, record) => record._id === keyId);
      return result.matchedCount === 1 || (await this.keys.countDocuments(key)) === 1;
    });
  }

  isLastUsedStale(record: ApiKeyRecord, now: Date): boolean {
    return (
      record.last_used_at === null || now.getTime() - record.last_used_at.getTime() >= LAST_USED_PRECISION_MS
    );
  }

  /** Conditional, so many processes seeing the same stale key write once. */
  async touchLastUsed(keyId: string, now: Date): Promise<void> {
    await this.backend(() =>
      this.keys.updateOne(
        {
          _id: keyId,
          $or: [
            { last_used_at: null },
            { last_used_at: { $lt: new Date(now.getTime() - LAST_USED_PRECISION_MS) } },
          ],
        },
        { $set: { last_used_at: now } },
      ),
    );
  }
}
