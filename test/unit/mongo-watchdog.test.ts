import { EventEmitter } from 'node:events';
import type { MongoClient } from 'mongodb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { restartWhenDriverSticks } from '../../src/stores/mongo.js';
import { recordingLogger } from '../support/test-server.js';

const CONNECT_TIMEOUT_MS = 1_000;
const SOCKET_TIMEOUT_MS = 1_000;
const HEARTBEAT_FREQUENCY_MS = 10_000;
const SERVER = '127.0.0.1:27017';

/** A client that emits what the driver's monitors emit, and counts restarts. */
function fakeClient() {
  const events = new EventEmitter();
  const restarts = { closed: 0, connected: 0 };
  const client = Object.assign(events, {
    options: {
      connectTimeoutMS: CONNECT_TIMEOUT_MS,
      heartbeatFrequencyMS: HEARTBEAT_FREQUENCY_MS,
      socketTimeoutMS: SOCKET_TIMEOUT_MS,
    },
    close: async () => {
      restarts.closed++;
      events.emit('topologyClosed', {});
    },
    connect: async () => {
      restarts.connected++;
    },
  });
  return { client: client as unknown as MongoClient, events, restarts };
}

describe('the MongoDB driver watchdog', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  const heartbeat = (events: EventEmitter, awaited: boolean) =>
    events.emit('serverHeartbeatStarted', { connectionId: SERVER, awaited });

  it('leaves a monitor alone whose heartbeats end within their own timeouts', async () => {
    const { client, events, restarts } = fakeClient();
    restartWhenDriverSticks(client, undefined);
    for (let beat = 0; beat < 5; beat++) {
      heartbeat(events, false);
      await vi.advanceTimersByTimeAsync(2 * CONNECT_TIMEOUT_MS);
      events.emit(beat % 2 ? 'serverHeartbeatSucceeded' : 'serverHeartbeatFailed', { connectionId: SERVER });
      await vi.advanceTimersByTimeAsync(HEARTBEAT_FREQUENCY_MS);
    }
    // An awaited heartbeat may last as long as the heartbeat frequency besides.
    heartbeat(events, true);
    await vi.advanceTimersByTimeAsync(HEARTBEAT_FREQUENCY_MS + 2 * CONNECT_TIMEOUT_MS);
    events.emit('serverHeartbeatSucceeded', { connectionId: SERVER });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(restarts).toEqual({ closed: 0, connected: 0 });
  });

  it('closes and connects the client again once a heartbeat outlives its timeouts, and says so', async () => {
    const { client, events, restarts } = fakeClient();
    const log = recordingLogger();
    restartWhenDriverSticks(client, log.logger);
    heartbeat(events, false);
    await vi.advanceTimersByTimeAsync(2 * CONNECT_TIMEOUT_MS + 999);
    expect(restarts).toEqual({ closed: 0, connected: 0 });
    await vi.advanceTimersByTimeAsync(1);
    expect(restarts).toEqual({ closed: 1, connected: 1 });
    expect(log.entries).toEqual([
      { level: 'warn', message: 'restarting the MongoDB client: its monitor of a server is stuck' },
    ]);
    // The new monitor's heartbeats are watched in turn.
    heartbeat(events, true);
    await vi.advanceTimersByTimeAsync(HEARTBEAT_FREQUENCY_MS + 2 * CONNECT_TIMEOUT_MS + 1_000);
    expect(restarts).toEqual({ closed: 2, connected: 2 });
  });

  const checkout = (events: EventEmitter, connectionId: number, to: 'Out' | 'In') =>
    events.emit(`connectionChecked${to}`, { address: SERVER, connectionId });

  it('leaves pooled connections alone that come back within a command’s timeouts', async () => {
    const { client, events, restarts } = fakeClient();
    restartWhenDriverSticks(client, undefined);
    for (let command = 0; command < 20; command++) {
      checkout(events, command % 3, 'Out');
      await vi.advanceTimersByTimeAsync(SOCKET_TIMEOUT_MS);
      checkout(events, command % 3, 'In');
    }
    await vi.advanceTimersByTimeAsync(60_000);
    expect(restarts).toEqual({ closed: 0, connected: 0 });
  });

  it('restarts the client when a pooled connection never comes back, as a command stuck on a dropped socket leaves it', async () => {
    const { client, events, restarts } = fakeClient();
    const log = recordingLogger();
    restartWhenDriverSticks(client, log.logger);
    checkout(events, 1, 'Out');
    checkout(events, 2, 'Out');
    checkout(events, 2, 'In');
    await vi.advanceTimersByTimeAsync(4 * SOCKET_TIMEOUT_MS + 2_000);
    expect(restarts).toEqual({ closed: 1, connected: 1 });
    expect(log.entries).toEqual([
      { level: 'warn', message: 'restarting the MongoDB client: a pooled connection is stuck' },
    ]);
    // The old pool is gone with its stuck connection: nothing more to restart for.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(restarts).toEqual({ closed: 1, connected: 1 });
  });
});
