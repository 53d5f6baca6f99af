import type { Collection, Db } from 'mongodb';
import { hashPassword, passwordMatches } from '../auth/password.js';
import { randomBase62 } from '../auth/random.js';
import { InvalidArgument } from '../errors.js';
import { FreshCache, type Freshness, NOT_CACHED } from './fresh-cache.js';
import { type DatabaseCalls, databaseCalls, isDuplicateKey } from './mongo.js';

export const USER_STATUSES = ['active', 'suspended'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** A person who signs in (through OAuth) on behalf of one account; access tokens name them. */
export interface User {
  _id: string;
  email: string;
  account_id: string;
  status: UserStatus;
  /** scrypt with a salt of its own (src/auth/password.ts); the password itself is never stored. */
  password_hash: string;
  created_at: Date;
  updated_at: Date;
}

const COLLECTION = 'users';

/**
 * Compared against when no user has the email, so an unknown email costs the same scrypt work as a
 * wrong password and the answer's timing does not tell which it was. Made once, on first need.
 */
let hashForUnknownEmails: Promise<string> | undefined;

function normalizedEmail(email: string): string {
  return email.trim().toLowerCase();
}

export class UsersStore {
  private readonly users: Collection<User>;
  /** Users as `/mcp` reads them for every call with an access token (see `FreshCache`). */
  private readonly recent: FreshCache<User>;

  private readonly backend: DatabaseCalls;

  constructor(db: Db, freshness: Freshness = NOT_CACHED) {
    this.backend = databaseCalls(db);
    this.users = db.collection<User>(COLLECTION);
    this.recent = new FreshCache(freshness);
  }

  async ensureIndexes(): Promise<void> {
    await this.backend(async () => {
      await this.users.createIndex({ email: 1 }, { unique: true });
      await this.users.createIndex({ account_id: 1 });
    });
  }

  async create(input: { email: string; password: string; accountId: string; now: Date }): Promise<User> {
    const user: User = {
      _id: `usr_${randomBase62(16)}`,
      email: normalizedEmail(input.email),
      account_id: input.accountId,
      status: 'active',
      password_hash: await hashPassword(input.password),
      created_at: input.now,
      updated_at: input.now,
    };
    try {
      await this.backend(() => this.users.insertOne(user));
    } catch (error) {
      if (isDuplicateKey(error)) {
        throw new InvalidArgument('email', `A user with the email ${user.email} already exists.`);
      }
      throw error;
    }
    return user;
  }

  async findById(userId: string): Promise<User | null> {
    return this.backend(() => this.users.findOne({ _id: userId }));
  }

  /** `findById` as read at most `Freshness.maxAgeMs` ago, by this process or another call. */
  async findByIdRecent(userId: string): Promise<User | null> {
    return this.recent.get(userId, () => this.findById(userId));
  }

  async findByEmail(email: string): Promise<User | null> {
    return this.backend(() => this.users.findOne({ email: normalizedEmail(email) }));
  }

  /**
   * The user whose email and password these are, or `null`: the same answer, after the same work,
   * for an unknown email and for a wrong password. Status is the caller's to check.
   */
  async findByCredentials(email: string, password: string): Promise<User | null> {
    const user = await this.findByEmail(email);
    if (user === null) {
      hashForUnknownEmails ??= hashPassword('no user has this email');
      await passwordMatches(password, await hashForUnknownEmails);
      return null;
    }
    return (await passwordMatches(password, user.password_hash)) ? user : null;
  }

  /** Replaces the password; returns false when no such user exists. */
  async setPassword(userId: string, password: string, now: Date): Promise<boolean> {
    const passwordHash = await hashPassword(password);
    const result = await this.backend(() =>
      this.users.updateOne({ _id: userId }, { $set: { password_hash: passwordHash, updated_at: now } }),
    );
    return result.matchedCount === 1;
  }

  /** Returns the user as it now is, or `null` for an unknown user. */
  async setStatus(userId: string, status: UserStatus, now: Date): Promise<User | null> {
    const updated = await this.backend(() =>
      this.users.findOneAndUpdate(
        { _id: userId },
        { $set: { status, updated_at: now } },
        { returnDocument: 'after' },
      ),
    );
    // After the write, so that no read from before it is kept.
    this.recent.forget(userId);
    return updated;
  }

  /** Returns false when no such user exists. */
  async delete(userId: string): Promise<boolean> {
    const result = await this.backend(() => this.users.deleteOne({ _id: userId }));
    this.recent.forget(userId);
    return result.deletedCount === 1;
  }
}
