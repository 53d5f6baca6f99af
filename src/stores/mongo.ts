import {
  type Db,
  MongoClient,
  MongoNetworkError,
  MongoNetworkTimeoutError,
  MongoServerSelectionError,
} from 'mongodb';
import type { Config } from '../config.js';
import { Unavailable } from '../errors.js';

export interface MongoHandle {
  client: MongoClient;
  db: Db;
}

export async function connectMongo(
  settings: Pick<Config, 'MONGODB_URI' | 'MONGODB_DB' | 'BACKEND_TIMEOUT_MS'>,
): Promise<MongoHandle> {
  const client = new MongoClient(settings.MONGODB_URI, {
    serverSelectionTimeoutMS: settings.BACKEND_TIMEOUT_MS,
    connectTimeoutMS: settings.BACKEND_TIMEOUT_MS,
    socketTimeoutMS: settings.BACKEND_TIMEOUT_MS,
    // Retrying a conditional update could apply it twice if the first reply was lost; our
    // charging code decides itself what is safe to repeat.
    retryWrites: false,
  });
  await client.connect().catch(() => undefined);
  return { client, db: client.db(settings.MONGODB_DB) };
}

/**
 * Socket failures the driver can pass on as plain Node errors, e.g. EPIPE when it writes to a pooled
 * connection that the server has already closed: an outage like any other.
 */
const SOCKET_ERROR_CODES = new Set([
  'EPIPE',
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'ENOTCONN',
]);

export function isMongoOutage(error: unknown): boolean {
  return (
    (error instanceof Error && SOCKET_ERROR_CODES.has(String((error as NodeJS.ErrnoException).code))) ||
    error instanceof MongoNetworkError ||
    error instanceof MongoServerSelectionError ||
    error instanceof MongoNetworkTimeoutError ||
    (error instanceof Error && /connection.*(closed|refused|reset)|topology.*closed/i.test(error.message))
  );
}

/** Runs one MongoDB call, mapping an outage to `Unavailable`. */
export async function databaseBackend<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isMongoOutage(error)) throw new Unavailable('database');
    throw error;
  }
}
