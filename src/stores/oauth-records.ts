import type { Collection, Db } from 'mongodb';
import { databaseBackend } from './mongo.js';

/**
 * The authorization server's records as its storage adapter keeps them (src/oauth/mongo-adapter.ts):
 * one collection per model, `oauth_<model>`, each document the library's payload with `expires_at`
 * beside it, the grant id of what a grant issued, and the user and client of a grant. This store
 * changes them where the rest of the server must, outside the library's own flows.
 */
interface OAuthRecord {
  _id: string;
  payload: Record<string, unknown>;
  expires_at?: Date;
  grant_id?: string;
  account_id?: string;
}

/** What a grant issued and may still be stored: revoking the grant removes them all. */
const ISSUED_UNDER_A_GRANT = ['AuthorizationCode', 'RefreshToken', 'AccessToken'] as const;

/** A registration nobody approved is deleted this long after it was made (docs/authentication.md). */
export const UNUSED_CLIENT_TTL_MS = 7 * 24 * 3600 * 1000;

export class OAuthRecordsStore {
  constructor(private readonly db: Db) {}

  private collection(model: string): Collection<OAuthRecord> {
    return this.db.collection<OAuthRecord>(`oauth_${model.toLowerCase()}`);
  }

  async ensureIndexes(): Promise<void> {
    // A person's sessions are looked up by who signed in only when they are all ended, but then fast.
    await databaseBackend(() => this.collection('Session').createIndex({ 'payload.accountId': 1 }));
  }

  /**
   * After a password change, a suspension or a deletion: `userId` is signed out of the
   * authorization server in every browser (its sessions, and sign-ins under way, go), and every app
   * they connected is disconnected (grants, with their codes and refresh tokens). Access tokens
   * already issued are refused by `/mcp` once it sees the grant gone, within IDENTITY_CACHE_MS.
   */
  async endEverySignIn(userId: string): Promise<{ sessions: number; grants: number }> {
    return databaseBackend(async () => {
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
        ISSUED_UNDER_A_GRANT.map((model) =>
          this.collection(model).deleteMany({ grant_id: { $in: grantIds } }),
        ),
      );
      return { sessions: sessions.deletedCount, grants: grantIds.length };
    });
  }

  /** A client just registered: it is deleted at `at` unless someone approves it before. */
  async expireUnusedClient(clientId: string, at: Date): Promise<void> {
    await databaseBackend(() =>
      this.collection('Client').updateOne(
        { _id: clientId, expires_at: { $exists: false } },
        { $set: { expires_at: at } },
      ),
    );
  }

  /** A person approved the client: it is kept at least until `at` (its grant's end and a week). */
  async keepClientUntil(clientId: string, at: Date): Promise<void> {
    await databaseBackend(() =>
      this.collection('Client').updateOne(
        { _id: clientId, $or: [{ expires_at: { $lt: at } }, { expires_at: { $exists: false } }] },
        { $set: { expires_at: at } },
      ),
    );
  }
}
