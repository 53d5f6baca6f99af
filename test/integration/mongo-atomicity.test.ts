import { type Collection, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '../support/backends.js';

interface Counter {
  _id: string;
  used: number;
}

/**
 * The pattern quotas and credits rely on: `updateOne({ used < limit }, { $inc })` must be atomic on
 * whatever server runs MongoDB's wire protocol, across connections, or a burst of calls overspends.
 */
describe('conditional $inc under concurrency', () => {
  const attempts = 500;
  let clients: [MongoClient, MongoClient];

  beforeAll(async () => {
    const { mongodbUri } = testBackends();
    clients = [
      new MongoClient(mongodbUri, { maxPoolSize: 50 }),
      new MongoClient(mongodbUri, { maxPoolSize: 50 }),
    ];
    await Promise.all(clients.map((client) => client.connect()));
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
  });

  function counters(client: MongoClient): Collection<Counter> {
    return client.db(testBackends().mongoDb).collection<Counter>('atomicity_counters');
  }

  /** Fires all attempts at once, alternating between the two clients; returns how many matched and the final count. */
  async function race(counterId: string, limit: number): Promise<{ modified: number; used: number }> {
    await counters(clients[0]).insertOne({ _id: counterId, used: 0 });
    const results = await Promise.all(
      Array.from({ length: attempts }, (_, attempt) =>
        counters(clients[attempt % 2] as MongoClient).updateOne(
          { _id: counterId, used: { $lt: limit } },
          { $inc: { used: 1 } },
        ),
      ),
    );
    const counter = await counters(clients[1]).findOne({ _id: counterId });
    return {
      modified: results.reduce((sum, result) => sum + result.modifiedCount, 0),
      used: counter?.used ?? -1,
    };
  }

  it('never takes a counter past its limit', async () => {
    const limit = 300;
    expect(await race('limited', limit)).toEqual({ modified: limit, used: limit });
  });

  it('loses no increment when the limit is out of reach', async () => {
    expect(await race('unreached', 1_000)).toEqual({ modified: attempts, used: attempts });
  });
});
