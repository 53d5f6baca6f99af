import { createHash } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import { addWithin, type CounterDoc } from './bounded-counter.js';
import { type DatabaseCalls, databaseCalls } from './mongo.js';

/** Failed sign-ins are counted in fixed windows of this length; a lockout ends with its window. */
const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;

export type AttemptDecision = { admitted: true } | { admitted: false; retryAt: Date };

const COLLECTION = 'sign_in_attempts';

/**
 * Password attempts per email and per client address, counted in MongoDB so that every server
 * process enforces the same limits, with a TTL index so the collection holds only current windows.
 * An attempt is counted before its password is checked, so parallel guesses cannot slip past the
 * limit; a successful one is taken back. Emails are stored hashed: unknown ones are counted too
 * (a lockout must not tell whether an email has a user), and they need not be kept in clear.
 */
export class SignInAttemptsStore {
  private readonly counters: Collection<CounterDoc>;

  private readonly backend: DatabaseCalls;

  constructor(db: Db) {
    this.backend = databaseCalls(db);
    this.counters = db.collection<CounterDoc>(COLLECTION);
  }

  async ensureIndexes(): Promise<void> {
    await this.backend(() => this.counters.createIndex({ expires_at: 1 }, { expireAfterSeconds: 0 }));
  }

  /** Counts one attempt for `email` from `address`, unless either has reached its limit this window. */
  async admit(
    attempt: { email: string; address: string },
    limits: { perEmail: number; perAddress: number },
    now: Date,
  ): Promise<AttemptDecision> {
    const window = windowOf(now);
    const fields = { expires_at: window.end };
    const byAddress = await this.backend(() =>
      addWithin(this.counters, addressCounterId(attempt.address, window.start), 1, limits.perAddress, fields),
    );
    if (byAddress === null) return { admitted: false, retryAt: window.end };
    const byEmail = await this.backend(() =>
      addWithin(this.counters, emailCounterId(attempt.email, window.start), 1, limits.perEmail, fields),
    );
    return byEmail === null ? { admitted: false, retryAt: window.end } : { admitted: true };
  }

  /** After a successful sign-in: the email's failures are forgiven, and the attempt uncounted from its address. */
  async forgive(attempt: { email: string; address: string }, now: Date): Promise<void> {
    const window = windowOf(now);
    await this.backend(async () => {
      await this.counters.deleteOne({ _id: emailCounterId(attempt.email, window.start) });
      await this.counters.updateOne(
        { _id: addressCounterId(attempt.address, window.start), used: { $gt: 0 } },
        { $inc: { used: -1 } },
      );
    });
  }
}

function windowOf(now: Date): { start: Date; end: Date } {
  const start = Math.floor(now.getTime() / SIGN_IN_WINDOW_MS) * SIGN_IN_WINDOW_MS;
  return { start: new Date(start), end: new Date(start + SIGN_IN_WINDOW_MS) };
}

function emailCounterId(email: string, windowStart: Date): string {
  const hashed = createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
  return `email:${hashed}:${windowStart.toISOString()}`;
}

function addressCounterId(address: string, windowStart: Date): string {
  return `address:${address}:${windowStart.toISOString()}`;
}
