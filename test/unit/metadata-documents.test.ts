import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isPublicAddress,
  mayFetchFrom,
  publicOnlyFetch,
  type ResolveHost,
} from '../../src/oauth/metadata-documents.js';
import { listenOnLoopback } from '../support/local-listener.js';

describe('which addresses a client metadata document may come from', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '[::1]',
    // IPv4-compatible and IPv4-mapped forms of loopback and of a public address alike.
    '::7f00:1',
    '::127.0.0.1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:8.8.8.8',
    // NAT64, 6to4 and Teredo carry an IPv4 address inside.
    '64:ff9b::7f00:1',
    '2002:7f00:1::1',
    '2001:0:4136:e378::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '93.184.215.14',
    '2606:4700::1111',
    '[2a00:1450:4001:80b::200e]',
  ])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('refuses IP literals that are not public and localhost names before any request', () => {
    for (const clientId of [
      'https://127.0.0.1/client.json',
      'https://[::1]/client.json',
      'https://[::7f00:1]/client.json',
      'https://[::ffff:127.0.0.1]/client.json',
      'https://localhost/client.json',
      'https://app.localhost/client.json',
      'https://169.254.169.254/latest/meta-data',
    ]) {
      expect(mayFetchFrom(clientId), clientId).toBe(false);
    }
    // Names are judged once resolved, by the fetch itself.
    expect(mayFetchFrom('https://client.example.test/client.json')).toBe(true);
    expect(mayFetchFrom('https://8.8.8.8/client.json')).toBe(true);
  });
});

describe('the fetch of a metadata document', () => {
  /** A listener on loopback that counts the connections made to it: none may be. */
  let listener: net.Server;
  let port: number;
  let connections = 0;

  beforeAll(async () => {
    listener = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    port = await listenOnLoopback(listener);
  });
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

  const answering =
    (...addresses: string[]): ResolveHost =>
    async () =>
      addresses.map((address) => ({ address, family: net.isIP(address) }));

  it.each([
    [['127.0.0.1']],
    [['::1']],
    [['::ffff:127.0.0.1']],
    [['::7f00:1']],
    // One private address among public ones is enough: the connection could go to any.
    [['8.8.8.8', '127.0.0.1']],
    [[]],
  ])('refuses a host name that resolves to %j, without connecting', async (addresses) => {
    const fetchDocument = publicOnlyFetch(answering(...addresses));
    await expect(fetchDocument(`https://client.example.test:${port}/client.json`)).rejects.toThrow(
      /does not resolve to public addresses only/,
    );
    expect(connections).toBe(0);
  });

  it('refuses an IP literal that is not public without resolving or connecting', async () => {
    let resolved = 0;
    const fetchDocument = publicOnlyFetch(async () => {
      resolved++;
      return [];
    });
    for (const host of ['127.0.0.1', '[::1]', '[::ffff:7f00:1]']) {
      await expect(fetchDocument(`https://${host}:${port}/client.json`)).rejects.toThrow(/public/);
    }
    expect(resolved).toBe(0);
    expect(connections).toBe(0);
  });

  it('gives up when the time limit ends during resolution', async () => {
    const stop = new AbortController();
    const fetchDocument = publicOnlyFetch(() => new Promise(() => undefined));
    const fetching = fetchDocument('https://slow.example.test/client.json', { signal: stop.signal });
    stop.abort(new Error('time limit'));
    await expect(fetching).rejects.toThrow('time limit');
  });
});
