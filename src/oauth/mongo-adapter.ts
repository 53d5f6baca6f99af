import type { Collection, Db } from 'mongodb';
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';
import { FreshCache, type Freshness } from '../stores/fresh-cache.js';
import { databaseBackend } from '../stores/mongo.js';

/**
 * How oidc-provider's models (clients, grants, codes, sessions, refresh tokens, interactions…)
 * are kept in MongoDB: one collection per model, `oauth_<model>`, one document per artifact.
 * The payload is stored as the library gave it; the fields beside it are ours, for lookups and
 * expiry. A TTL index removes expired documents eventually; until then `find` ignores them.
 */
export interface StoredArtifact {
  _id: string;
  payload: AdapterPayload;
  /** Absent for artifacts that never expire (dynamically registered clients). */
  expires_at?: Date;
  grant_id?: string;
  uid?: string;
  user_code?: string;
  /** Grants only: who granted, to whom, so consent can be found again and listed on the account pages. */
  account_id?: string;
  client_id?: string;
  /** Grants only: when `/mcp` last accepted one of its access tokens (src/oauth/grants.ts). */
  last_used_at?: Date;
}

/** The models that carry a grant id: revoking a grant removes all of them (JWT access tokens are not stored). */
const GRANTABLE_MODELS = [
  'AuthorizationCode',
  'RefreshToken',
  'AccessToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
] as const;

export function artifactCollection(db: Db, modelName: string): Collection<StoredArtifact> {
  return db.collection<StoredArtifact>(`oauth_${modelName.toLowerCase()}`);
}

/**
 * Grants as `/mcp` reads them for every call with an access token, per database connection (one per
 * server process; see `FreshCache`). Whatever this process deletes a grant through forgets its copy.
 */
const recentGrantsByDb = new WeakMap<Db, FreshCache<StoredArtifact>>();

export function recentGrants(db: Db, freshness: Freshness): FreshCache<StoredArtifact> {
  let cache = recentGrantsByDb.get(db);
  if (cache === undefined) {
    cache = new FreshCache(freshness);
    recentGrantsByDb.set(db, cache);
  }
  return cache;
}

export function forgetGrant(db: Db, grantId: string): void {
  recentGrantsByDb.get(db)?.forget(grantId);
}

/** The models whose collections get indexes at start-up: those this server actually uses. */
const USED_MODELS = [
  'Client',
  'Grant',
  'Session',
  'Interaction',
  'AuthorizationCode',
  'RefreshToken',
  'AccessToken',
] as const;

export async function ensureOAuthIndexes(db: Db): Promise<void> {
  await databaseBackend(async () => {
    for (const model of USED_MODELS) {
      const collection = artifactCollection(db, model);
      await collection.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0 });
      await collection.createIndex({ grant_id: 1 });
    }
    await artifactCollection(db, 'Session').createIndex({ uid: 1 });
    await artifactCollection(db, 'Grant').createIndex({ account_id: 1, client_id: 1 });
  });
}

/** How the adapter's calls reach the library: src/oauth/outage.ts turns an outage into its own 503 error. */
type LibraryCall = <T>(call: () => Promise<T>) => Promise<T>;

/**
 * The adapter class oidc-provider instantiates once per model name. (The library itself is not
 * imported here: the pages read grants through this file without loading it.)
 */
export function mongoAdapter(
  db: Db,
  libraryCall: LibraryCall,
  now: () => Date = () => new Date(),
): AdapterFactory {
  const adapterCall = <T>(call: () => Promise<T>) => libraryCall(() => databaseBackend(call));
  return class MongoAdapter implements Adapter {
    private readonly collection: Collection<StoredArtifact>;

    constructor(private readonly modelName: string) {
      this.collection = artifactCollection(db, modelName);
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number | undefined): Promise<void> {
      const document: Omit<StoredArtifact, '_id'> = { payload };
      if (expiresIn) document.expires_at = new Date(now().getTime() + expiresIn * 1000);
      if (payload.grantId) document.grant_id = payload.grantId;
      if (payload.uid) document.uid = payload.uid;
      if (payload.userCode) document.user_code = payload.userCode;
      if (this.modelName === 'Grant') {
        document.account_id = payload.accountId;
        document.client_id = payload.clientId;
      }
      await adapterCall(() => this.collection.replaceOne({ _id: id }, document, { upsert: true }));
    }

    find(id: string): Promise<AdapterPayload | undefined> {
      return this.findOne({ _id: id });
    }

    findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.findOne({ uid });
    }

    findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.findOne({ user_code: userCode });
    }

    async consume(id: string): Promise<void> {
      await adapterCall(() =>
        this.collection.updateOne(
          { _id: id },
          { $set: { 'payload.consumed': Math.floor(now().getTime() / 1000) } },
        ),
      );
    }

    async destroy(id: string): Promise<void> {
      await adapterCall(() => this.collection.deleteOne({ _id: id }));
      if (this.modelName === 'Grant') forgetGrant(db, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await adapterCall(() => this.collection.deleteMany({ grant_id: grantId }));
    }

    private async findOne(filter: Partial<StoredArtifact>): Promise<AdapterPayload | undefined> {
      const found = await adapterCall(() => this.collection.findOne(filter));
      // The TTL monitor runs about once a minute: an expired document may still be there.
      if (found === null || (found.expires_at !== undefined && found.expires_at <= now())) return undefined;
      return found.payload;
    }
  };
}

/** Removes every artifact issued under `grantId`, in every model that carries one. */
export async function revokeArtifactsOfGrant(db: Db, grantId: string): Promise<void> {
  await databaseBackend(() =>
    Promise.all(
      GRANTABLE_MODELS.map((model) => artifactCollection(db, model).deleteMany({ grant_id: grantId })),
    ),
  );
}
