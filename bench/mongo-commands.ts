/**
 * Counts the MongoDB commands our server sends, from outside it: the server runs in its own
 * process, and mongo-java-server's serverStatus has no opcounters. The benchmark's servers reach
 * MongoDB through this forwarder, which passes every byte on at once and reads the command name
 * of each client message as it goes by.
 */
import net, { type AddressInfo } from 'node:net';
import { commandOf, splitMessages } from '../test/support/mongo-wire.js';

export interface MongoCommandCounter {
  /** The URI the servers use instead of the real one. */
  uri: string;
  /** Commands counted so far, by name (`find`, `update`, `findAndModify`, ...). */
  counts(): Record<string, number>;
  close(): Promise<void>;
}

/**
 * What is counted: commands addressed to a collection (find, insert, update, delete,
 * findAndModify, aggregate, ...). Handshakes, pings and the driver's heartbeats name no collection
 * and are left out, and so is getMore, whose command document starts with a cursor id rather than a
 * collection name.
 */
export const COUNTED = 'commands naming a collection, seen on the wire between the servers and MongoDB';

export async function startMongoCommandCounter(mongodbUri: string): Promise<MongoCommandCounter> {
  const target = new URL(mongodbUri);
  if (target.protocol !== 'mongodb:' || target.host.includes(',')) {
    throw new Error('counting MongoDB commands needs a mongodb:// URI with one host');
  }
  const counts: Record<string, number> = {};
  const sockets = new Set<net.Socket>();

  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 27017), target.hostname);
    let pending: Buffer = Buffer.alloc(0);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      const { messages, rest } = splitMessages(Buffer.concat([pending, chunk]));
      pending = rest;
      for (const message of messages) {
        const name = commandOf(message)?.name;
        if (name !== undefined) counts[name] = (counts[name] ?? 0) + 1;
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });

  const uri = new URL(mongodbUri);
  uri.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  // One host behind a forwarder: the driver must not go looking for the real one.
  uri.searchParams.set('directConnection', 'true');
  return {
    uri: uri.toString(),
    counts: () => ({ ...counts }),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
