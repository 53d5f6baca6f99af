import { createHash } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import { randomBase62 } from '../auth/random.js';
import { type DatabaseCalls, databaseCalls } from './mongo.js';

/**
 * A signed-in browser on the account pages. The cookie holds a random id; only its SHA-256 is
 * stored, so a copy of the database signs nobody in. Kept in MongoDB so that every server process
 * knows it and signing out (or an operator's password change) ends it everywhere at once.
 */
export interface PageSession {
  _id: string;
  user_id: string;
  created_at: Date;
  expires_at: Date;
}

const COLLECTION = 'page_sessions';
/** A session ends this long after sign-in, however busy: the password is asked again. */
const PAGE_SESSION_LIFETIME_MS = 8 * 60 * 60 * 1000;
/** 190 bits, like an API key: unguessable, and a plain hash is enough to store it. */
const SESSION_ID_LENGTH = 32;

function storedId(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex');
}

export class PageSessionsStore {
  private readonly sessions: Collection<PageSession>;

  private readonly backend: DatabaseCalls;

  constructor(db: Db) {
    this.backend = databaseCalls(db);
    this.sessions = db.collection<PageSession>(COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await this.backend(async () => {
      await this.sessions.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0 });
      await this.sessions.createIndex({ user_id: 1 });
    });
  }

  /** Starts a session; the returned id goes into the cookie and nowhere else. */
  async start(userId: string, now: Date): Promise<{ sessionId: string; expiresAt: Date }> {
    const sessionId = randomBase62(SESSION_ID_LENGTH);
    const expiresAt = new Date(now.getTime() + PAGE_SESSION_LIFETIME_MS);
    await this.backend(() =>
      this.sessions.insertOne({
        _id: storedId(sessionId),
        user_id: userId,
        created_at: now,
        expires_at: expiresAt,
      }),
    );
    return { sessionId, expiresAt };
  }

  /** The user id of a live session; expiry is checked here, not left to the TTL index's schedule. */
  async userOf(sessionId: string, now: Date): Promise<string | null> {
    const session = await this.backend(() =>
      this.sessions.findOne({ _id: storedId(sessionId), expires_at: { $gt: now } }),
    );
    return session?.user_id ?? null;
  }

  async end(sessionId: string): Promise<void> {
    await this.backend(() => this.sessions.deleteOne({ _id: storedId(sessionId) }));
  }

  /** Signs the user out of every browser. */
  async endAllOf(userId: string): Promise<void> {
    await this.backend(() => this.sessions.deleteMany({ user_id: userId }));
  }
}
