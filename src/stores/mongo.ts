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
import type { LogFields, Logger } from '../logger.js';

export interface MongoHandle {
  client: MongoClient;
  db: Db;
}

/**
 * A client for `settings`, connected if MongoDB answers (it connects by itself later otherwise).
 * `logger` hears of a client restarted because the driver was stuck (`restartWhenDriverSticks`).
 */
export async function connectMongo(
  settings: Pick<Config, 'MONGODB_URI' | 'MONGODB_DB' | 'BACKEND_TIMEOUT_MS' | 'METRICS_PORT'>,
  logger?: Logger,
): Promise<MongoHandle> {
  const client = new MongoClient(settings.MONGODB_URI, {
    // Every stage of a command has its own bound: finding the server, waiting for a pooled
    // connection, opening one, and each read of its answer (a connection silent that long is closed
    // by the driver and replaced). Stages add up, so `databaseCalls` also bounds the whole call.
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
  operationDeadlines.set(client, settings.BACKEND_TIMEOUT_MS);
  restartWhenDriverSticks(client, logger);
  await client.connect().catch(() => undefined);
  return { client, db: client.db(settings.MONGODB_DB) };
}

/** Lets the connection go; a process calls it once, last. */
export function disconnectMongo(handle: MongoHandle): Promise<void> {
  return handle.client.close();
}

/**
 * The driver (mongodb 7.9) can leave a command waiting for ever: a command written to a connection
 * that the server dropped a moment before waits for the socket to drain, and no timeout fires on a
 * destroyed socket. Seen whenever MongoDB drops every connection at once (a restart). On a pooled
 * connection, the connection stays checked out for the life of the process (`databaseCalls`
 * answers the caller, but the pool never gets it back); in the server's monitor, the server stays
 * unknown and every command fails until the process restarts. So: a heartbeat ends within its own
 * timeouts (an awaited one within heartbeatFrequencyMS, plus connectTimeoutMS to connect and to
 * read), and a connection is checked out for one command, whose reply comes within socketTimeoutMS;
 * one that has not come back a second after twice that means the driver is stuck, and the client is
 * closed and connected again, which builds a new monitor and pool. Collections keep working: each
 * command reaches the server through the client. Uses the driver's public events only.
 */
export function restartWhenDriverSticks(
  client: Pick<MongoClient, 'options' | 'on' | 'close' | 'connect'>,
  logger: Logger | undefined,
): void {
  const { connectTimeoutMS, heartbeatFrequencyMS, socketTimeoutMS } = client.options;
  let restarting = false;
  const restart = async (stuck: string, fields: LogFields) => {
    if (restarting) return;
    restarting = true;
    logger?.warn(`restarting the MongoDB client: ${stuck} is stuck`, fields);
    try {
      await client.close();
      await client.connect();
    } catch {
      // MongoDB is away: the client connects by itself on the next command.
    } finally {
      restarting = false;
    }
  };

  const heartbeats = new Map<string, NodeJS.Timeout>();
  const heartbeatEnded = (event: { connectionId: string }) => {
    clearTimeout(heartbeats.get(event.connectionId));
    heartbeats.delete(event.connectionId);
  };
  client.on('serverHeartbeatStarted', (event) => {
    heartbeatEnded(event);
    const limitMs = (event.awaited ? heartbeatFrequencyMS : 0) + 2 * connectTimeoutMS + 1000;
    const watchdog = setTimeout(
      () => void restart('its monitor of a server', { server: event.connectionId }),
      limitMs,
    );
    // A watchdog never keeps a process alive: a process that is stopping closes its client.
    watchdog.unref();
    heartbeats.set(event.connectionId, watchdog);
  });
  client.on('serverHeartbeatSucceeded', heartbeatEnded);
  client.on('serverHeartbeatFailed', heartbeatEnded);

  // When each connection now checked out was, by `performance.now()`; looked over now and then.
  const checkedOut = new Map<string, number>();
  const checkoutLimitMs = 2 * socketTimeoutMS + 1000;
  let checkouts: NodeJS.Timeout | undefined;
  const lookOverCheckouts = () => {
    checkouts = undefined;
    const now = performance.now();
    for (const [connection, since] of checkedOut) {
      if (now - since > checkoutLimitMs) return void restart('a pooled connection', { connection });
    }
    watchCheckouts();
  };
  const watchCheckouts = () => {
    if (checkouts !== undefined || checkedOut.size === 0 || socketTimeoutMS === 0) return;
    checkouts = setTimeout(lookOverCheckouts, checkoutLimitMs);
    checkouts.unref();
  };
  const connection = (event: { address: string; connectionId: number | '<monitor>' }) =>
    `${event.address}#${event.connectionId}`;
  client.on('connectionCheckedOut', (event) => {
    checkedOut.set(connection(event), performance.now());
    watchCheckouts();
  });
  client.on('connectionCheckedIn', (event) => checkedOut.delete(connection(event)));

  // Closing the client ends its monitors without a last event, and drops its pool.
  client.on('topologyClosed', () => {
    for (const watchdog of heartbeats.values()) clearTimeout(watchdog);
    heartbeats.clear();
    checkedOut.clear();
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
 * pool, server or client as they were closed (a client restarted by `restartWhenDriverSticks`: a
 * command still running on one of its connections gets MongoClientClosedError). The driver exports
 * no class for the first two, so they are all known by name.
 */
const NO_CONNECTION_ERROR_NAMES = new Set([
  'MongoWaitQueueTimeoutError',
  'MongoPoolClosedError',
  'MongoTopologyClosedError',
  'MongoServerClosedError',
  'MongoClientClosedError',
]);

export function isMongoOutage(error: unknown): boolean {
  return (
    (error instanceof Error && SOCKET_ERROR_CODES.has(String((error as NodeJS.ErrnoException).code))) ||
    (error instanceof Error && NO_CONNECTION_ERROR_NAMES.has(error.name)) ||
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
 * The longest any MongoDB call of a client may take before it counts as an outage: the
 * BACKEND_TIMEOUT_MS it was connected with. The driver's own timeouts bound each stage of a command,
 * but not their sum (finding the server, then a pooled connection, then the answer), and a command
 * written to a connection the server has just dropped has been seen to wait for ever; this deadline
 * answers the caller whatever the driver is doing. The driver's work goes on until its own timeouts
 * end it, closing a connection that stayed silent (docs/performance.md, "Connections"). Kept per
 * client, so that processes holding clients of different timeouts (tests) bound each by its own.
 */
const operationDeadlines = new WeakMap<MongoClient, number>();

/** Runs one MongoDB call, mapping an outage (or a call past the deadline) to `Unavailable`. */
export type DatabaseCalls = <T>(call: () => Promise<T>) => Promise<T>;

/**
 * How a store runs its calls on `db`: within the deadline of the client `connectMongo` made (none
 * for a client made elsewhere, whose own timeouts then apply).
 */
export function databaseCalls(db: Db): DatabaseCalls {
  const deadlineMs = operationDeadlines.get(db.client) ?? 0;
  return async (call) => {
    let deadline: NodeJS.Timeout | undefined;
    const pastDeadline = new Promise<never>((_resolve, reject) => {
      if (deadlineMs > 0) deadline = setTimeout(() => reject(new Unavailable('database')), deadlineMs);
    });
    try {
      return await Promise.race([call(), pastDeadline]);
    } catch (error) {
      if (isMongoOutage(error)) throw new Unavailable('database');
      throw error;
    } finally {
      clearTimeout(deadline);
    }
  };
}
