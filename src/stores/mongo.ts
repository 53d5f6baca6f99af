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
import type { Logger } from '../logger.js';

export interface MongoHandle {
  client: MongoClient;
  db: Db;
}

/**
 * A client for `settings`, connected if MongoDB answers (it connects by itself later otherwise).
 * `logger` hears of a client restarted because its server monitor was stuck (`restartWhenMonitorSticks`).
 */
export async function connectMongo(
  settings: Pick<Config, 'MONGODB_URI' | 'MONGODB_DB' | 'BACKEND_TIMEOUT_MS' | 'METRICS_PORT'>,
  logger?: Logger,
): Promise<MongoHandle> {
  const client = new MongoClient(settings.MONGODB_URI, {
    // Every stage of a command has its own bound: finding the server, waiting for a pooled
    // connection, opening one, and each read of its answer (a connection silent that long is closed
    // by the driver and replaced). Stages add up, so `databaseBackend` also bounds the whole call.
    serverSelectionTimeoutMS: settings.BACKEND_TIMEOUT_MS,
    waitQueueTimeoutMS: settings.BACKEND_TIMEOUT_MS,
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
  restartWhenMonitorSticks(client, logger);
  await client.connect().catch(() => undefined);
  return { client, db: client.db(settings.MONGODB_DB) };
}

/**
 * The driver's monitor of a server can stop for good (mongodb 7.9): a heartbeat written to a
 * connection that the server dropped a moment before waits for ever for the socket to drain, no
 * timeout fires on a destroyed socket, and with its monitor stuck the server stays unknown, so
 * every command fails until the process restarts. Seen whenever MongoDB drops every connection at
 * once (a restart) just as the pool is cleared. A heartbeat ends within its own timeouts (an
 * awaited one within heartbeatFrequencyMS, plus connectTimeoutMS to connect and to read); one that
 * has not ended a second after that means the monitor is stuck, and the client is closed and
 * connected again, which builds a new monitor and pool. Collections keep working: each command
 * reaches the server through the client. Uses the driver's public heartbeat events only.
 */
export function restartWhenMonitorSticks(
  client: Pick<MongoClient, 'options' | 'on' | 'close' | 'connect'>,
  logger: Logger | undefined,
): void {
  const { connectTimeoutMS, heartbeatFrequencyMS } = client.options;
  const watchdogs = new Map<string, NodeJS.Timeout>();
  let restarting = false;
  const restart = async (server: string) => {
    if (restarting) return;
    restarting = true;
    logger?.warn('restarting the MongoDB client: its monitor of a server is stuck', { server });
    try {
      await client.close();
      await client.connect();
    } catch {
      // MongoDB is away: the client connects by itself on the next command.
    } finally {
      restarting = false;
    }
  };
  const stopWatching = (event: { connectionId: string }) => {
    clearTimeout(watchdogs.get(event.connectionId));
    watchdogs.delete(event.connectionId);
  };
  client.on('serverHeartbeatStarted', (event) => {
    stopWatching(event);
    const limitMs = (event.awaited ? heartbeatFrequencyMS : 0) + 2 * connectTimeoutMS + 1000;
    const watchdog = setTimeout(() => void restart(event.connectionId), limitMs);
    // The watchdog never keeps a process alive: a process that is stopping closes its client.
    watchdog.unref();
    watchdogs.set(event.connectionId, watchdog);
  });
  client.on('serverHeartbeatSucceeded', stopWatching);
  client.on('serverHeartbeatFailed', stopWatching);
  // Closing the client ends its monitors without a last event.
  client.on('topologyClosed', () => {
    for (const watchdog of watchdogs.values()) clearTimeout(watchdog);
    watchdogs.clear();
  });
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

/**
 * The driver's errors for a command that got no connection in time (the wait queue), or lost its
 * pool or client as they were closed (a client restarted by `restartWhenMonitorSticks`): the
 * driver exports no class for the first two, so they are known by name.
 */
const NO_CONNECTION_ERROR_NAMES = new Set([
  'MongoWaitQueueTimeoutError',
  'MongoPoolClosedError',
  'MongoTopologyClosedError',
]);

export function isMongoOutage(error: unknown): boolean {
  return (
    (error instanceof Error && SOCKET_ERROR_CODES.has(String((error as NodeJS.ErrnoException).code))) ||
    (error instanceof Error && NO_CONNECTION_ERROR_NAMES.has(error.name)) ||
    error instanceof MongoNetworkError ||
    error instanceof MongoServerSelectionError ||
    error instanceof MongoNetworkTimeoutError ||
    (error instanceof Error && /connection.*(closed|refused|reset)|topology.*closed/i.test(error.message))
  );
}

/** MongoDB's error code for a write that a unique index refused. */
const DUPLICATE_KEY = 11000;

export function isDuplicateKey(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === DUPLICATE_KEY;
}

/**
 * The longest any MongoDB call may take before it counts as an outage: BACKEND_TIMEOUT_MS (the
 * longest of the process's connections). The driver's own timeouts bound each stage of a command,
 * but not their sum (finding the server, then a pooled connection, then the answer), and a command
 * written to a connection the server has just dropped has been seen to wait for ever; this deadline
 * answers the caller whatever the driver is doing. The driver's work goes on until its own timeouts
 * end it, closing a connection that stayed silent (docs/performance.md, "Connections").
 */
let operationDeadlineMs = 0;

function boundOperationsBy(backendTimeoutMs: number): void {
  operationDeadlineMs = Math.max(operationDeadlineMs, backendTimeoutMs);
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
