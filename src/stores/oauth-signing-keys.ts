import type { JWK } from 'jose';
import type { Collection, Db } from 'mongodb';
import { type DatabaseCalls, databaseCalls, isDuplicateKey } from './mongo.js';

/** One document holds the whole set: inserting it under a fixed id makes two processes starting at once agree on one key. */
const KEY_SET_ID = 'access-token-keys';

interface StoredKeySet {
  _id: string;
  keys: JWK[];
  created_at: Date;
  rotated_at?: Date;
}

/** The authorization server's generated signing keys, newest first, in `oauth_signing_keys`. */
export class OAuthSigningKeysStore {
  private readonly collection: Collection<StoredKeySet>;

  private readonly backend: DatabaseCalls;

  constructor(db: Db) {
    this.backend = databaseCalls(db);
    this.collection = db.collection<StoredKeySet>('oauth_signing_keys');
  }

  /** The stored key set, or null before the first start stored one. */
  async keys(): Promise<JWK[] | null> {
    return (await this.backend(() => this.collection.findOne({ _id: KEY_SET_ID })))?.keys ?? null;
  }

  /** Stores `keys` unless a set is stored already; either way, the set every process now uses. */
  async storeFirst(keys: JWK[], now: Date): Promise<JWK[]> {
    try {
      await this.backend(() => this.collection.insertOne({ _id: KEY_SET_ID, keys, created_at: now }));
      return keys;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      // Another process stored its key first: use that one.
      const winner = await this.keys();
      if (winner === null) throw error;
      return winner;
    }
  }

  /** Puts `key` first and keeps the `keep` newest keys; the set after. */
  async putFirst(key: JWK, keep: number, now: Date): Promise<JWK[]> {
    const after = await this.backend(() =>
      this.collection.findOneAndUpdate(
        { _id: KEY_SET_ID },
        {
          $push: { keys: { $each: [key], $position: 0, $slice: keep } },
          $set: { rotated_at: now },
          $setOnInsert: { created_at: now },
        },
        { upsert: true, returnDocument: 'after' },
      ),
    );
    return after?.keys ?? [key];
  }
}
