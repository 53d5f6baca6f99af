import {
  type Db,
  MongoClient,
  MongoNetworkError,
  MongoNetworkTimeoutError,
  MongoServerError,
  MongoServerSelectionError,
} from 'mongodb';
import type { Config } from '../config.js';
import { Unavailable } from '../errors.js';

export interface MongoHandle {
  client: MongoClient;
  db: Db;
}

export async function connectMongo(
  settings: Pick<Config, 'MONGODB_URI' | 'MONGODB_DB' | 'BACKEND_TIMEOUT_MS' | 'METRICS_PORT'>,
): Promise<MongoHandle> {
  const client = new MongoClient(settings.MONGODB_URI, {
    serverSelectionTimeoutMS: settings.BACKEND_TIMEOUT_MS,
    connectTimeoutMS: settings.BACKEND_TIMEOUT_MS,
    socketTimeoutMS: settings.BACKEND_TIMEOUT_MS,
    // Retryable writes stay on (the driver's default): on a replica set, MongoDB recognises a retried
    // write by its session and applies it at most once, so a conditional charge cannot land twice.
    // A standalone server gets no retries; the charging code copes with unknown outcomes itself.
    // Command events feed the MongoDB metrics (src/stores/backend-metrics.ts). The driver's events
    // cost some CPU on every command, so only a process that serves its metrics asks for them.
    monitorCommands: settings.METRICS_PORT !== undefined,
  });
  boundOperationsBy(settings.BACKEND_TIMEOUT_MS);
  await client.connect().catch(() => undefined);
  return { client, db: client.db(settings.MONGODB_DB) };
}

/** Lets the connection go; a process calls it once, last. */
export function disconnectMongo(handle: MongoHandle): Promise<void> {
  return handle.client.close();
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
    (error instanceof Error && describesLostConnection(error.message))
  );
}

/** "connection … closed/refused/reset" or "topology … closed", in the driver's own words. */
function describesLostConnection(message: string): boolean {
  const text = message.toLowerCase();
  const connection = text.indexOf('connection');
  const topology = text.indexOf('topology');
  return (
    (connection >= 0 && ['closed', 'refused', 'reset'].some((word) => text.includes(word, connection))) ||
    (topology >= 0 && text.includes('closed', topology))
  );
}

/** MongoDB's error code for a write that a unique index refused. */
const DUPLICATE_KEY = 11000;

export function isDuplicateKey(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === DUPLICATE_KEY;
}

/**
 * The longest any MongoDB call may take before it counts as an outage. The driver's own timeouts
 * bound each socket read, but a call that checks out a pooled connection just as the server drops
 * it has been seen to wait for ever, with no timeout left to fire; this deadline ends such a call.
 * It is twice the longest BACKEND_TIMEOUT_MS of the process's connections, plus a second, so it
 * never cuts short a call the driver would still end by itself. (The stuck call keeps its pooled
 * connection; the pool's size bounds what that can cost.)
 */
let operationDeadlineMs = 0;

function boundOperationsBy(backendTimeoutMs: number): void {
  operationDeadlineMs = Math.max(operationDeadlineMs, 2 * backendTimeoutMs + 1000);
}

/** Runs one MongoDB call, mapping an outage (or a call past the deadline) to `Unavailable`. */
export async function databaseBackend<T>(call: () => Promise<T>): Promise<T> {
  let deadline: NodeJS.Timeout | undefined;
  const pastDeadline = new Promise<never>((_resolve, reject) => {
    if (operationDeadlineMs > 0) {
      deadline = setTimeout(() => reject(new Unavailable('database')), operationDeadlineMs);
    }
  });
  try {
    return await Promise.race([call(), pastDeadline]);
  } catch (error) {
    if (isMongoOutage(error)) throw new Unavailable('database');
    throw error;
  } finally {
    clearTimeout(deadline);
  }
}
