import type { Collection, Db } from 'mongodb';
import { databaseBackend } from './mongo.js';

/** How a lead came to be unlocked for an account. */
export type UnlockSource = 'mcp' | 'app';

export interface UnlockDoc {
  account_id: string;
  lead_id: string;
  /** `pending` while an `enrich_lead` call is charging for it; only `done` unlocks count. */
  state: 'pending' | 'done';
  source: UnlockSource;
  charged_credits: number;
  created_at: Date;
}

/** One document per (account, lead) unlock; the unique index makes an unlock happen at most once. */
export class UnlocksStore {
  private readonly collection: Collection<UnlockDoc>;

  constructor(db: Db) {
    this.collection = db.collection<UnlockDoc>('unlocks');
  }

  async ensureIndexes(): Promise<void> {
    await this.collection.createIndex({ account_id: 1, lead_id: 1 }, { unique: true, name: 'account_lead' });
  }

  /** The ids among `leadIds` that the account has unlocked, for the `enriched` flag of cards. */
  async unlockedAmong(accountId: string, leadIds: readonly string[]): Promise<Set<string>> {
    if (leadIds.length === 0) return new Set();
    const found = await databaseBackend(() =>
      this.collection
        .find(
          { account_id: accountId, lead_id: { $in: [...leadIds] }, state: 'done' },
          { projection: { lead_id: 1, _id: 0 } },
        )
        .toArray(),
    );
    return new Set(found.map((unlock) => unlock.lead_id));
  }
}
