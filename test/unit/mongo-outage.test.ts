import {
  MongoClientClosedError,
  MongoInvalidArgumentError,
  MongoNetworkError,
  MongoServerClosedError,
  MongoServerError,
  MongoTopologyClosedError,
} from 'mongodb';
import { describe, expect, it } from 'vitest';
import { isMongoOutage } from '../../src/stores/mongo.js';

describe('isMongoOutage', () => {
  // A client restarted while a command runs on one of its connections (restartWhenDriverSticks)
  // fails that command with MongoClientClosedError: an outage to retry, like a dropped connection,
  // so a refund in flight then is queued rather than given up.
  it.each([
    ['the client closed under a running command', new MongoClientClosedError()],
    ['the server closed', new MongoServerClosedError()],
    ['the topology closed', new MongoTopologyClosedError()],
    ['a dropped connection', new MongoNetworkError('connection 3 to 127.0.0.1:27017 closed')],
  ])('counts %s as an outage', (_what, error) => {
    expect(isMongoOutage(error)).toBe(true);
  });

  it.each([
    ['a duplicate key', new MongoServerError({ message: 'E11000 duplicate key error', code: 11000 })],
    ['a bad argument', new MongoInvalidArgumentError('bad option')],
    ['any other error', new Error('boom')],
  ])('does not count %s as one', (_what, error) => {
    expect(isMongoOutage(error)).toBe(false);
  });
});
