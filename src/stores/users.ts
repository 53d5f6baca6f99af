import { type Collection, type Db, MongoServerError } from 'mongodb';
import { hashPassword } from '../auth/password.js';
import { randomBase62 } from '../auth/random.js';
import { InvalidArgument } from '../errors.js';
import { databaseBackend } from './mongo.js';

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
const DUPLICATE_KEY = 11000;

export class UsersStore {
  private readonly users: Collection<User>;

  constructor(db: Db) {
    this.users = db.collection<User>(COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await databaseBackend(async () => {
      await this.users.createIndex({ email: 1 }, { unique: true });
      await this.users.createIndex({ account_id: 1 });
    });
  }

  async create(input: { email: string; password: string; accountId: string; now: Date }): Promise<User> {
    const user: User = {
      _id: `usr_${randomBase62(16)}`,
      email: input.email.trim().toLowerCase(),
      account_id: input.accountId,
      status: 'active',
      password_hash: await hashPassword(input.password),
      created_at: input.now,
      updated_at: input.now,
    };
    try {
      await databaseBackend(() => this.users.insertOne(user));
    } catch (error) {
      if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) {
        throw new InvalidArgument('email', `A user with the email ${user.email} already exists.`);
      }
      throw error;
    }
    return user;
  }

  async findById(userId: string): Promise<User | null> {
    return databaseBackend(() => this.users.findOne({ _id: userId }));
  }

  /** Returns the user as it now is, or `null` for an unknown user. */
  async setStatus(userId: string, status: UserStatus, now: Date): Promise<User | null> {
    return databaseBackend(() =>
      this.users.findOneAndUpdate(
        { _id: userId },
        { $set: { status, updated_at: now } },
        { returnDocument: 'after' },
      ),
    );
  }

  /** Returns false when no such user exists. */
  async delete(userId: string): Promise<boolean> {
    const result = await databaseBackend(() => this.users.deleteOne({ _id: userId }));
    return result.deletedCount === 1;
  }
}
