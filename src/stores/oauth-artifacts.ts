import type { Collection, Db } from 'mongodb';
import type { AdapterPayload } from 'oidc-provider';
import { FreshCache, type Freshness, NOT_CACHED } from './fresh-cache.js';
import { type DatabaseCalls, databaseCalls } from './mongo.js';

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

/** The fields of a stored artifact that a lookup may match on. */
export type ArtifactLookup =
  | Pick<StoredArtifact, '_id'>
  | Pick<StoredArtifact, 'uid'>
  | { user_code: string };

/** The models that carry a grant id: revoking a grant removes all of them (JWT access tokens are not stored). */
const GRANTABLE_MODELS = [
  'AuthorizationCode',
  'RefreshToken',
  'AccessToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
] as const;

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

/** A registration nobody approved is deleted this long after it was made (docs/authentication.md). */
export const UNUSED_CLIENT_TTL_MS = 7 * 24 * 3600 * 1000;

/** The account pages list at most this many connected apps. */
const GRANTS_LISTED_AT_MOST = 200;

/**
 * The authorization server's artifacts (`oauth_<model>` collections): what its adapter stores for
 * the library (src/oauth/mongo-adapter.ts), and the grants the resource server checks and the
 * account pages list (src/oauth/grants.ts).
 */
export class OAuthArtifactsStore {
  /**
   * Grants as `/mcp` reads them for every call with an access token, kept at most
   * `freshness.maxAgeMs`; whatever this store deletes a grant through forgets its copy.
   */
  private readonly recentGrants: FreshCache<StoredArtifact>;

  private readonly backend: DatabaseCalls;

  constructor(
    private readonly db: Db,
    freshness: Freshness = NOT_CACHED,
  ) {
    this.backend = databaseCalls(db);
    this.recentGrants = new FreshCache(freshness);
  }

  private collection(modelName: string): Collection<StoredArtifact> {
    return this.db.collection<StoredArtifact>(`oauth_${modelName.toLowerCase()}`);
  }

  async ensureIndexes(): Promise<void> {
    await this.backend(async () => {
      for (const model of USED_MODELS) {
        const collection = this.collection(model);
        await collection.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0 });
        await collection.createIndex({ grant_id: 1 });
      }
      await this.collection('Session').createIndex({ uid: 1 });
      // A person's sessions are looked up by who signed in only when they are all ended, but then fast.
      await this.collection('Session').createIndex({ 'payload.accountId': 1 });
      await this.collection('Grant').createIndex({ account_id: 1, client_id: 1 });
    });
  }

  /** Stores the library's payload under `id`, with the fields we look it up by beside it. */
  async upsert(modelName: string, id: string, payload: AdapterPayload, expiresAt: Date | undefined) {
    const document: Omit<StoredArtifact, '_id'> = { payload };
    if (expiresAt !== undefined) document.expires_at = expiresAt;
    if (payload.grantId) document.grant_id = payload.grantId;
    if (payload.uid) document.uid = payload.uid;
    if (payload.userCode) document.user_code = payload.userCode;
    if (modelName === 'Grant') {
      document.account_id = payload.accountId;
      document.client_id = payload.clientId;
    }
    await this.backend(() => this.collection(modelName).replaceOne({ _id: id }, document, { upsert: true }));
  }

  /** The payload of the artifact matching `lookup`, unless it expired at `now` (the TTL monitor runs about once a minute). */
  async find(modelName: string, lookup: ArtifactLookup, now: Date): Promise<AdapterPayload | undefined> {
    const found = await this.backend(() => this.collection(modelName).findOne(lookup));
    if (found === null || (found.expires_at !== undefined && found.expires_at <= now)) return undefined;
    return found.payload;
  }

  /** Marks a one-time artifact (a code) as used, at `atSeconds` since the epoch. */
  async consume(modelName: string, id: string, atSeconds: number): Promise<void> {
    await this.backend(() =>
      this.collection(modelName).updateOne({ _id: id }, { $set: { 'payload.consumed': atSeconds } }),
    );
  }

  async destroy(modelName: string, id: string): Promise<void> {
    await this.backend(() => this.collection(modelName).deleteOne({ _id: id }));
    if (modelName === 'Grant') this.recentGrants.forget(id);
  }

  /** Removes the artifacts of one model issued under `grantId`. */
  async revokeByGrantId(modelName: string, grantId: string): Promise<void> {
    await this.backend(() => this.collection(modelName).deleteMany({ grant_id: grantId }));
  }

  /** The live grants of `userId`, at most GRANTS_LISTED_AT_MOST, oldest id first. */
  liveGrantsOf(userId: string, now: Date): Promise<StoredArtifact[]> {
    return this.backend(() =>
      this.collection('Grant')
        .find({ account_id: userId, expires_at: { $gt: now } })
        .sort({ _id: 1 })
        .limit(GRANTS_LISTED_AT_MOST)
        .toArray(),
    );
  }

  /** The person's latest live grant to `clientId`, if any. */
  latestLiveGrant(userId: string, clientId: string, now: Date): Promise<StoredArtifact | null> {
    return this.backend(() =>
      this.collection('Grant').findOne(
        { account_id: userId, client_id: clientId, expires_at: { $gt: now } },
        { sort: { expires_at: -1 } },
      ),
    );
  }

  /** The stored clients among `clientIds`. */
  clients(clientIds: string[]): Promise<StoredArtifact[]> {
    return this.backend(() =>
      this.collection('Client')
        .find({ _id: { $in: clientIds } })
        .toArray(),
    );
  }

  /** A grant as the resource server checks it: a copy at most `freshness.maxAgeMs` old. */
  recentGrant(grantId: string): Promise<StoredArtifact | null> {
    return this.recentGrants.get(grantId, () =>
      this.backend(() => this.collection('Grant').findOne({ _id: grantId })),
    );
  }

  /**
   * Records that `/mcp` accepted a token of the grant at `now`; the cached copy learns it too, or
   * every call until the next read would write again. The caller does not wait for it.
   */
  touchGrant(grant: StoredArtifact, now: Date): Promise<unknown> {
    grant.last_used_at = now;
    return this.collection('Grant').updateOne({ _id: grant._id }, { $set: { last_used_at: now } });
  }

  /**
   * Deletes one of `userId`'s grants and everything issued under it. False when the grant does not
   * exist or is someone else's.
   */
  async deleteGrant(grantId: string, userId: string): Promise<boolean> {
    const removed = await this.backend(() =>
      this.collection('Grant').deleteOne({ _id: grantId, account_id: userId }),
    );
    if (removed.deletedCount !== 1) return false;
    this.recentGrants.forget(grantId);
    await this.backend(() =>
      Promise.all(GRANTABLE_MODELS.map((model) => this.collection(model).deleteMany({ grant_id: grantId }))),
    );
    return true;
  }

  /**
   * After a password change, a suspension or a deletion: `userId` is signed out of the
   * authorization server in every browser (its sessions, and sign-ins under way, go), and every app
   * they connected is disconnected (grants, with their codes and refresh tokens). Access tokens
   * already issued are refused by `/mcp` once it sees the grant gone, within IDENTITY_CACHE_MS.
   */
  async endEverySignIn(userId: string): Promise<{ sessions: number; grants: number }> {
    const ended = await this.backend(async () => {
      const sessions = await this.collection('Session').deleteMany({ 'payload.accountId': userId });
      // An interaction holds a finished sign-in until the browser comes back for its code.
      await this.collection('Interaction').deleteMany({
        $or: [
          { 'payload.session.accountId': userId },
          { 'payload.result.login.accountId': userId },
          { 'payload.accountId': userId },
        ],
      });
      const grants = this.collection('Grant');
      const grantIds = (await grants.find({ account_id: userId }, { projection: { _id: 1 } }).toArray()).map(
        (grant) => grant._id,
      );
      await grants.deleteMany({ _id: { $in: grantIds } });
      await Promise.all(
        GRANTABLE_MODELS.map((model) => this.collection(model).deleteMany({ grant_id: { $in: grantIds } })),
      );
      return { sessions: sessions.deletedCount, grantIds };
    });
    for (const grantId of ended.grantIds) this.recentGrants.forget(grantId);
    return { sessions: ended.sessions, grants: ended.grantIds.length };
  }

  /** A client just registered: it is deleted at `at` unless someone approves it before. */
  async expireUnusedClient(clientId: string, at: Date): Promise<void> {
    await this.backend(() =>
      this.collection('Client').updateOne(
        { _id: clientId, expires_at: { $exists: false } },
        { $set: { expires_at: at } },
      ),
    );
  }

  /** A person approved the client: it is kept at least until `at` (its grant's end and a week). */
  async keepClientUntil(clientId: string, at: Date): Promise<void> {
    await this.backend(() =>
      this.collection('Client').updateOne(
        { _id: clientId, $or: [{ expires_at: { $lt: at } }, { expires_at: { $exists: false } }] },
        { $set: { expires_at: at } },
      ),
    );
  }
}
