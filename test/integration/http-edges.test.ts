import net from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeTools } from '../support/fake-tools.js';
import { postRaw, requestRaw, toolCallRequest } from '../support/mcp-client.js';
import {
  createAccountWithKey,
  recordingLogger,
  startTestServer,
  TEST_BASE_URL,
  type TestServer,
} from '../support/test-server.js';

const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };

/** A server with the fake tools for the enclosing `describe`, and an account's key; closed after it. */
function fakeToolsServerWithKey(options: Omit<Parameters<typeof startTestServer>[0], 'tools'> = {}) {
  const running = {} as { server: TestServer; key: string };
  beforeAll(async () => {
    running.server = await startTestServer({ tools: fakeTools, ...options });
    ({ key: running.key } = await createAccountWithKey(running.server.services));
  });
  afterAll(async () => {
    await running.server?.close();
  });
  return running;
}

describe('Content-Encoding of POST /mcp bodies', () => {
  const recording = recordingLogger();
  const logged = recording.entries;
  const running = fakeToolsServerWithKey({ logger: recording.logger });

  const echoBody = Buffer.from(JSON.stringify(toolCallRequest('echo', { text: 'zip' })));
  const post = (body: Uint8Array | string, encoding: string) =>
    postRaw(running.server.url, body, { token: running.key, headers: { 'Content-Encoding': encoding } });

  it('reads identity, gzip, deflate and br bodies', async () => {
    const encoded: [string, Uint8Array][] = [
      ['identity', echoBody],
      ['gzip', gzipSync(echoBody)],
      ['deflate', deflateSync(echoBody)],
      ['br', brotliCompressSync(echoBody)],
      ['GZip', gzipSync(echoBody)],
    ];
    for (const [encoding, body] of encoded) {
      const answer = await post(body, encoding);
      expect(answer.status, encoding).toBe(200);
      expect(answer.json, encoding).toMatchObject({ result: { structuredContent: { echoed: 'zip' } } });
    }
  });

  it('answers an unknown encoding with 415 and a JSON-RPC error naming it', async () => {
    // zstd too, although Node 24 could read it: the served encodings are the same on every Node.
    for (const encoding of ['compress', 'x-custom', 'gzip, br', 'zstd']) {
      const answer = await post(echoBody, encoding);
      expect(answer.status, encoding).toBe(415);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(answer.json).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: expect.stringContaining(`"${encoding}"`) },
      });
    }
  });

  it('answers a body that is not what its encoding says with 400 and -32700', async () => {
    const truncated = gzipSync(echoBody).subarray(0, 20);
    const bodies: [string, Uint8Array | string][] = [
      ['gzip', echoBody],
      ['gzip', truncated],
      ['deflate', 'not deflated'],
      ['br', Buffer.from([0xff, 0xff, 0xff, 0xff])],
    ];
    for (const [encoding, body] of bodies) {
      const answer = await post(body, encoding);
      expect(answer.status, encoding).toBe(400);
      expect(answer.json, encoding).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
    }
  });

  it('counts the 1 MiB limit after decompression', async () => {
    const bomb = gzipSync(JSON.stringify(toolCallRequest('echo', { text: ' '.repeat(2 * 1024 * 1024) })));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const answer = await post(bomb, 'gzip');
    expect(answer.status).toBe(413);
    expect(answer.json).toMatchObject({ error: { code: -32600 } });
  });

  it('answers an unsupported charset with 415', async () => {
    const answer = await postRaw(running.server.url, JSON.stringify(ping), {
      token: running.key,
      headers: { 'Content-Type': 'application/json; charset=latin1' },
    });
    expect(answer.status).toBe(415);
    expect(answer.json).toMatchObject({ error: { code: -32600, message: expect.stringContaining('UTF-8') } });
  });

  it('logs these client faults below error level', async () => {
    logged.length = 0;
    await post(echoBody, 'compress');
    await post(echoBody, 'gzip');
    expect(logged.filter((entry) => entry.level === 'error')).toEqual([]);
    expect(logged.filter((entry) => entry.message === 'request body refused')).toHaveLength(2);
  });
});

describe('params of the served methods', () => {
  const running = fakeToolsServerWithKey();

  const send = (message: Record<string, unknown>) =>
    postRaw(running.server.url, message, { token: running.key });

  it('answers tools/call whose params are no object with -32602 naming "params"', async () => {
    for (const params of [[], null, 'echo', 42, true]) {
      const answer = await send({ jsonrpc: '2.0', id: 'p', method: 'tools/call', params });
      expect(answer.status, JSON.stringify(params)).toBe(200);
      expect(answer.json, JSON.stringify(params)).toEqual({
        jsonrpc: '2.0',
        id: 'p',
        error: { code: -32602, message: 'Invalid params: "params" must be an object.' },
      });
    }
    const missing = await send({ jsonrpc: '2.0', id: 3, method: 'tools/call' });
    expect(missing.json).toMatchObject({
      id: 3,
      error: { code: -32602, message: 'Invalid params: "params" is required.' },
    });
  });

  it('answers tools/call whose arguments are no object with -32602 naming "params.arguments"', async () => {
    for (const args of [[], null, 'text', 42, [{ text: 'hi' }]]) {
      const answer = await send({
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'echo', arguments: args },
      });
      expect(answer.json, JSON.stringify(args)).toEqual({
        jsonrpc: '2.0',
        id: 9,
        error: { code: -32602, message: 'Invalid params: "params.arguments" must be an object.' },
      });
    }
  });

  it('names the field for the other served methods too, never -32603', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ method: 'tools/call', params: { arguments: {} } }, '"params.name" is required'],
      [{ method: 'tools/call', params: { name: 7 } }, '"params.name" must be a string'],
      [{ method: 'tools/list', params: { cursor: 5 } }, '"params.cursor" must be a string'],
      [{ method: 'tools/list', params: [] }, '"params" must be an object'],
      [{ method: 'ping', params: 'now' }, '"params" must be an object'],
      [{ method: 'initialize', params: {} }, '"params.protocolVersion" is required'],
      [
        {
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: [],
            clientInfo: { name: 'x', version: '1' },
          },
        },
        '"params.capabilities" must be an object',
      ],
    ];
    for (const [message, problem] of cases) {
      const answer = await send({ jsonrpc: '2.0', id: 1, ...message });
      expect(answer.json, JSON.stringify(message)).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32602, message: `Invalid params: ${problem}.` },
      });
    }
  });

  it('answers a malformed envelope with -32600 naming the member, whatever the method', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ id: null, method: 'ping' }, -32600, 'Invalid request: "id" must be a string or an integer.'],
      [{ id: 1.5, method: 'ping' }, -32600, 'Invalid request: "id" must be a string or an integer.'],
      [{ id: {}, method: 'ping' }, -32600, 'Invalid request: "id" must be a string or an integer.'],
      [
        { id: 1, method: 'ping', extra: true },
        -32600,
        'Invalid request: "extra" is not a member of a JSON-RPC message.',
      ],
      [
        { id: 1, method: 'resources/list', params: [] },
        -32602,
        'Invalid params: "params" must be an object.',
      ],
      [
        { method: 'notifications/initialized', params: 5 },
        -32600,
        'Invalid request: "params" must be an object.',
      ],
    ];
    for (const [message, code, text] of cases) {
      const answer = await send({ jsonrpc: '2.0', ...message });
      expect(answer.status, JSON.stringify(message)).toBe(code === -32602 ? 200 : 400);
      expect(answer.json, JSON.stringify(message)).toMatchObject({
        jsonrpc: '2.0',
        error: { code, message: text },
      });
    }
  });

  it('still serves well-formed messages', async () => {
    const call = await send({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'ok' }, _meta: { progressToken: 'p1' } },
    });
    expect(call.json).toMatchObject({ result: { structuredContent: { echoed: 'ok' } } });
    const unknownMethod = await send({ jsonrpc: '2.0', id: 2, method: 'prompts/list', params: {} });
    expect(unknownMethod.json).toMatchObject({ id: 2, error: { code: -32601 } });
    const notification = await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(notification.status).toBe(202);
  });
});

describe('Host and Origin (DNS rebinding)', () => {
  describe('with a public BASE_URL', () => {
    const running = fakeToolsServerWithKey({ config: { ALLOWED_ORIGINS: 'https://app.example.com' } });

    const postWithHost = (host: string, headers: Record<string, string> = {}) =>
      requestRaw(running.server.url, {
        method: 'POST',
        headers: { Host: host, Authorization: `Bearer ${running.key}`, ...headers },
        body: JSON.stringify(ping),
      });

    it('serves its own host name and the allowed ones, on any port', async () => {
      for (const host of ['hiring-leads.test', 'HIRING-LEADS.test:8080', '127.0.0.1', '127.0.0.1:9']) {
        expect((await postWithHost(host)).status, host).toBe(200);
      }
    });

    it('refuses any other host name on /mcp with 403 and JSON-RPC -32600', async () => {
      for (const host of [
        'evil.example',
        'hiring-leads.test.evil.example',
        'localhost',
        'evil.example@127.0.0.1',
      ]) {
        const answer = await postWithHost(host);
        expect(answer.status, host).toBe(403);
        expect(answer.json, host).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
      }
    });

    it('refuses a foreign host on the metadata too, but not on the health probes', async () => {
      const metadata = await requestRaw(`${running.server.root}/.well-known/oauth-protected-resource/mcp`, {
        headers: { Host: 'evil.example' },
      });
      expect(metadata.status).toBe(403);
      expect(metadata.json).toMatchObject({ error: 'forbidden' });
      const health = await requestRaw(`${running.server.root}/healthz`, {
        headers: { Host: '10.1.2.3:3000' },
      });
      expect(health.status).toBe(200);
    });

    it('accepts its own origin and the allowed ones, and refuses others', async () => {
      for (const origin of [TEST_BASE_URL, 'https://app.example.com']) {
        expect((await postWithHost('hiring-leads.test', { Origin: origin })).status, origin).toBe(200);
      }
      for (const origin of ['http://evil.example', 'http://127.0.0.1', 'https://hiring-leads.test', 'null']) {
        expect((await postWithHost('hiring-leads.test', { Origin: origin })).status, origin).toBe(403);
      }
    });
  });

  describe('with a loopback BASE_URL', () => {
    const running = fakeToolsServerWithKey({
      config: { BASE_URL: 'http://localhost:3000', ALLOWED_HOSTS: '' },
    });

    const post = (headers: Record<string, string>) =>
      requestRaw(running.server.url, {
        method: 'POST',
        headers: { Authorization: `Bearer ${running.key}`, ...headers },
        body: JSON.stringify(ping),
      });

    it('serves every loopback host name on any port, and no other', async () => {
      for (const host of ['localhost', 'localhost:3000', '127.0.0.1:51234', '[::1]:3000', 'LOCALHOST:1']) {
        expect((await post({ Host: host })).status, host).toBe(200);
      }
      for (const host of ['evil.example', 'evil.example:3000', '127.0.0.2', 'localhost.evil.example']) {
        expect((await post({ Host: host })).status, host).toBe(403);
      }
    });

    it('accepts the loopback origins of its own port and refuses other ports and names', async () => {
      for (const origin of ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000']) {
        expect((await post({ Host: 'localhost:3000', Origin: origin })).status, origin).toBe(200);
      }
      for (const origin of ['http://localhost:4000', 'http://127.0.0.1', 'http://evil.example:3000']) {
        expect((await post({ Host: 'localhost:3000', Origin: origin })).status, origin).toBe(403);
      }
    });
  });
});

describe('server timeouts and limits', () => {
  const running = fakeToolsServerWithKey({
    config: {
      HTTP_HEADERS_TIMEOUT_MS: '300',
      HTTP_REQUEST_TIMEOUT_MS: '1000',
      HTTP_MAX_CONNECTIONS: '4',
    },
  });

  const connect = async () => {
    const socket = net.connect(Number(new URL(running.server.root).port), '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString();
    });
    socket.on('error', () => {});
    const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
    return { socket, closed };
  };

  it('cuts off a client sending its headers slowly with 408, and serves others meanwhile', async () => {
    const slow = await connect();
    slow.socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    // A byte at a time, each well within any idle timeout; only the total is too slow.
    const drip = setInterval(() => slow.socket.writable && slow.socket.write('a'), 20);
    try {
      const served = await postRaw(running.server.url, ping, { token: running.key });
      expect(served.status).toBe(200);
      expect(await slow.closed).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      clearInterval(drip);
    }
  });

  it('closes connections beyond the maximum at once', async () => {
    const held = await Promise.all([connect(), connect(), connect(), connect()]);
    try {
      const extra = await connect();
      extra.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      expect(await extra.closed).toBe('');
    } finally {
      for (const connection of held) connection.socket.destroy();
    }
  });
});
