import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_INSTRUCTIONS } from '../../src/mcp/instructions.js';
import { fakeTools } from '../support/fake-tools.js';
import { connectClient, postRaw, toolCallRequest, toolError } from '../support/mcp-client.js';
import {
  createAccountWithKey,
  startTestServer,
  TEST_BASE_URL,
  type TestServer,
} from '../support/test-server.js';

describe('the MCP endpoint', () => {
  let server: TestServer;
  let key: string;
  let client: Client;

  beforeAll(async () => {
    server = await startTestServer({ tools: fakeTools });
    ({ key } = await createAccountWithKey(server.services));
    client = await connectClient(server.url, key);
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  const jsonHeaders = { 'Content-Type': 'application/json', Accept: 'application/json' };

  describe('through an SDK client', () => {
    it('initializes with serverInfo, the tools capability and instructions', () => {
      expect(client.getServerVersion()).toEqual({ name: 'hiring-leads', version: expect.any(String) });
      expect(client.getServerCapabilities()?.tools).toBeDefined();
      expect(client.getInstructions()).toBe(SERVER_INSTRUCTIONS);
    });

    it('lists every tool with title, JSON schemas and annotations', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(fakeTools.map((tool) => tool.name));
      const echo = tools.find((tool) => tool.name === 'echo');
      expect(echo).toMatchObject({
        title: 'Echo',
        inputSchema: {
          type: 'object',
          properties: { text: { type: 'string', maxLength: 20 }, times: { minimum: 1, maximum: 5 } },
          required: ['text'],
          additionalProperties: false,
        },
        outputSchema: { type: 'object', properties: { echoed: { type: 'string' } } },
        annotations: {
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: false,
        },
      });
    });

    it('answers a call with structuredContent and the same JSON as text', async () => {
      const result = await client.callTool({ name: 'echo', arguments: { text: 'ab', times: 2 } });
      expect(result.structuredContent).toEqual({ echoed: 'abab' });
      expect(result.content).toEqual([{ type: 'text', text: JSON.stringify({ echoed: 'abab' }) }]);
      expect(result.isError).toBeFalsy();
    });

    it('answers an unknown tool with JSON-RPC -32602, its message prefixed once by the client', async () => {
      const call = client.callTool({ name: 'no_such_tool', arguments: {} });
      await expect(call).rejects.toBeInstanceOf(McpError);
      await expect(call).rejects.toMatchObject({
        code: ErrorCode.InvalidParams,
        message:
          'MCP error -32602: Unknown tool "no_such_tool". Call tools/list for the tools this server offers.',
      });
    });

    it('answers bad arguments with invalid_argument naming the field', async () => {
      const result = await client.callTool({ name: 'echo', arguments: { text: 'ab', times: 9 } });
      expect(result.structuredContent).toBeUndefined();
      expect(toolError(result as never)).toMatchObject({
        code: 'invalid_argument',
        details: { field: 'times' },
      });
    });

    it('answers an unexpected failure with internal and the request id, never the internals', async () => {
      const result = await client.callTool({ name: 'broken', arguments: {} });
      const error = toolError(result as never);
      expect(error.code).toBe('internal');
      expect(error.details.request_id).toEqual(expect.any(String));
      expect(JSON.stringify(result)).not.toMatch(/secret|\/srv|at .*\.ts/);
    });

    it('answers ping', async () => {
      await expect(client.ping()).resolves.toEqual({});
    });
  });

  describe('for scripts', () => {
    it('answers a tools/call without initialize, with only Accept: application/json', async () => {
      const answer = await postRaw(server.url, toolCallRequest('echo', { text: 'hi' }), {
        token: key,
        headers: jsonHeaders,
      });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(answer.headers.get('mcp-session-id')).toBeNull();
      expect(answer.json).toMatchObject({ jsonrpc: '2.0', result: { structuredContent: { echoed: 'hi' } } });
    });

    it('answers with no Accept and no Content-Type header at all', async () => {
      const answer = await postRaw(server.url, toolCallRequest('echo', { text: 'hi' }), { token: key });
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ result: { structuredContent: { echoed: 'hi' } } });
    });

    it('answers Accept: */*', async () => {
      const answer = await postRaw(server.url, toolCallRequest('echo', { text: 'hi' }), {
        token: key,
        headers: { Accept: '*/*' },
      });
      expect(answer.status).toBe(200);
    });

    it('writes JSON-RPC error messages without the SDK client\'s "MCP error" prefix', async () => {
      for (const message of [
        toolCallRequest('no_such_tool'),
        { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'ui://nothing' } },
      ]) {
        const answer = await postRaw(server.url, message, { token: key, headers: jsonHeaders });
        expect(answer.json).toMatchObject({
          error: { code: -32602, message: expect.stringMatching(/^Unknown /) },
        });
      }
    });

    it('gives every answer an X-Request-Id', async () => {
      const answer = await postRaw(server.url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { token: key });
      expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe('protocol faults', () => {
    it('refuses GET and DELETE with 405 and Allow: POST', async () => {
      for (const method of ['GET', 'DELETE']) {
        const response = await fetch(server.url, { method, headers: { Authorization: `Bearer ${key}` } });
        expect(response.status).toBe(405);
        expect(response.headers.get('allow')).toBe('POST');
      }
    });

    it('refuses a batch with -32600', async () => {
      const answer = await postRaw(server.url, [{ jsonrpc: '2.0', id: 1, method: 'ping' }], { token: key });
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    });

    it('answers malformed JSON with 400 and -32700', async () => {
      const answer = await postRaw(server.url, '{"jsonrpc": "2.0", "id": 1,', {
        token: key,
        headers: jsonHeaders,
      });
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ error: { code: -32700 } });
    });

    it('answers a JSON value that is no JSON-RPC request with -32600', async () => {
      const answer = await postRaw(server.url, { id: 5, method: 'ping' }, { token: key });
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ id: 5, error: { code: -32600 } });
    });

    it('refuses a body over 1 MiB with 413', async () => {
      const body = JSON.stringify({ ...toolCallRequest('echo', { text: 'x'.repeat(2 * 1024 * 1024) }) });
      const answer = await postRaw(server.url, body, { token: key, headers: jsonHeaders });
      expect(answer.status).toBe(413);
    });

    it('answers an unknown method with -32601', async () => {
      const answer = await postRaw(
        server.url,
        { jsonrpc: '2.0', id: 7, method: 'prompts/list' },
        { token: key },
      );
      expect(answer.json).toMatchObject({ id: 7, error: { code: -32601 } });
    });

    it('refuses a foreign Origin with 403 and accepts its own', async () => {
      const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
      const foreign = await postRaw(server.url, ping, {
        token: key,
        headers: { Origin: 'http://evil.example' },
      });
      expect(foreign.status).toBe(403);
      const own = await postRaw(server.url, ping, { token: key, headers: { Origin: TEST_BASE_URL } });
      expect(own.status).toBe(200);
    });

    it('refuses an unsupported MCP-Protocol-Version header with 400 and serves the supported ones', async () => {
      const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
      const old = await postRaw(server.url, ping, {
        token: key,
        headers: { 'MCP-Protocol-Version': '2024-11-05' },
      });
      expect(old.status).toBe(400);
      for (const version of ['2025-03-26', '2025-06-18', '2025-11-25']) {
        const served = await postRaw(server.url, ping, {
          token: key,
          headers: { 'MCP-Protocol-Version': version },
        });
        expect(served.status).toBe(200);
      }
    });

    it('answers an initialize asking for an unserved revision with the latest one', async () => {
      const answer = await postRaw(
        server.url,
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2024-11-05',
            capabilities: {},
            clientInfo: { name: 'old', version: '1' },
          },
        },
        { token: key },
      );
      expect(answer.json).toMatchObject({ result: { protocolVersion: '2025-11-25' } });
    });
  });

  describe('revision 2026-07-28 (a _meta envelope on every request)', () => {
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    /** A request of the revision, with the headers mirroring its body, as its clients send it. */
    function modern(
      method: string,
      params: Record<string, unknown> = {},
      headers: Record<string, string> = {},
    ) {
      const name: Record<string, string> = typeof params.name === 'string' ? { 'Mcp-Name': params.name } : {};
      return postRaw(
        server.url,
        { jsonrpc: '2.0', id: 41, method, params: { _meta: envelope, ...params } },
        {
          token: key,
          headers: {
            ...jsonHeaders,
            'MCP-Protocol-Version': '2026-07-28',
            'Mcp-Method': method,
            ...name,
            ...headers,
          },
        },
      );
    }

    it('answers server/discover with the revision, the capabilities, the instructions and who answers', async () => {
      const answer = await modern('server/discover');
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({
        id: 41,
        result: {
          resultType: 'complete',
          supportedVersions: ['2026-07-28'],
          capabilities: { tools: {}, resources: {} },
          instructions: SERVER_INSTRUCTIONS,
          _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'hiring-leads' } },
        },
      });
    });

    it('says the listings may be cached an hour by anyone, and tool results not at all', async () => {
      for (const method of ['tools/list', 'resources/list', 'resources/templates/list', 'server/discover']) {
        expect((await modern(method)).json, method).toMatchObject({
          result: { ttlMs: 3_600_000, cacheScope: 'public' },
        });
      }
      const call = await modern('tools/call', { name: 'echo', arguments: { text: 'hi' } });
      expect(call.json).toMatchObject({
        result: { structuredContent: { echoed: 'hi' }, resultType: 'complete' },
      });
      expect((call.json as { result: object }).result).not.toHaveProperty('ttlMs');
      expect((call.json as { result: object }).result).not.toHaveProperty('cacheScope');
    });

    it('lists the same tools to every caller, whatever the plan: what "public" promises', async () => {
      const free = await createAccountWithKey(server.services, { plan: 'free' });
      const listed = (token: string) =>
        postRaw(server.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { token, headers: jsonHeaders });
      expect((await listed(free.key)).text).toBe((await listed(key)).text);
    });

    it('answers the methods the revision removed with 404 and -32601', async () => {
      for (const method of ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe']) {
        const answer = await modern(method);
        expect(answer.status, method).toBe(404);
        expect(answer.json, method).toMatchObject({ id: 41, error: { code: -32601 } });
      }
    });

    it('refuses headers that disagree with the body with 400 and -32020, keeping the id', async () => {
      for (const headers of [
        { 'Mcp-Method': 'tools/list' },
        { 'Mcp-Name': 'whoami' },
        { 'MCP-Protocol-Version': '2025-11-25' },
      ] as Record<string, string>[]) {
        const answer = await modern('tools/call', { name: 'echo', arguments: { text: 'hi' } }, headers);
        expect(answer.status, JSON.stringify(headers)).toBe(400);
        expect(answer.json, JSON.stringify(headers)).toMatchObject({ id: 41, error: { code: -32020 } });
      }
    });

    it('refuses a revision it does not serve with 400 and -32022 listing the one it does', async () => {
      const answer = await modern(
        'tools/list',
        { _meta: { ...envelope, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
        { 'MCP-Protocol-Version': '2099-01-01' },
      );
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({
        id: 41,
        error: { code: -32022, data: { supported: ['2026-07-28'] } },
      });
    });

    it('refuses a request naming the revision in its header but carrying no envelope with 400 and -32602', async () => {
      const answer = await postRaw(
        server.url,
        { jsonrpc: '2.0', id: 43, method: 'tools/list' },
        {
          token: key,
          headers: { ...jsonHeaders, 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/list' },
        },
      );
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ id: 43, error: { code: -32602 } });
    });

    it("keeps the contract's answers: credentials, Origin, bad params, unknown tools, tool errors", async () => {
      const anonymous = await postRaw(server.url, { jsonrpc: '2.0', id: 1, method: 'server/discover' }, {});
      expect(anonymous.status).toBe(401);
      expect((await modern('tools/list', {}, { Origin: 'http://evil.example' })).status).toBe(403);
      expect((await modern('tools/call', { name: 'echo', arguments: 5 })).json).toMatchObject({
        error: { code: -32602, message: 'Invalid params: "params.arguments" must be an object.' },
      });
      expect((await modern('tools/call', { name: 'no_such_tool' })).json).toMatchObject({
        error: { code: -32602, message: expect.stringMatching(/^Unknown tool "no_such_tool"/) },
      });
      const bad = await modern('tools/call', { name: 'echo', arguments: { text: 'ab', times: 9 } });
      expect(bad.status).toBe(200);
      expect(toolError((bad.json as { result: never }).result)).toMatchObject({
        code: 'invalid_argument',
        details: { field: 'times' },
      });
    });

    it('answers subscriptions/listen with its acknowledgment and the end of the stream: nothing here changes', async () => {
      const answer = await modern('subscriptions/listen', { notifications: { toolsListChanged: true } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const events = answer.text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice(6)));
      expect(events).toMatchObject([
        { method: 'notifications/subscriptions/acknowledged', params: { notifications: {} } },
        { id: 41, result: { resultType: 'complete' } },
      ]);
    });
  });

  describe('unauthenticated endpoints', () => {
    it('report the process up on /healthz', async () => {
      const response = await fetch(`${server.root}/healthz`);
      expect(response.status).toBe(200);
    });

    it('report both backends on /readyz', async () => {
      const response = await fetch(`${server.root}/readyz`);
      expect(await response.json()).toEqual({ status: 'ready', elasticsearch: 'up', mongodb: 'up' });
    });

    it('serve protected-resource metadata with and without the /mcp suffix', async () => {
      for (const path of [
        '/.well-known/oauth-protected-resource/mcp',
        '/.well-known/oauth-protected-resource',
      ]) {
        const metadata = (await (await fetch(`${server.root}${path}`)).json()) as {
          scopes_supported: string[];
        };
        expect(metadata).toMatchObject({
          resource: `${TEST_BASE_URL}/mcp`,
          authorization_servers: [TEST_BASE_URL],
          bearer_methods_supported: ['header'],
        });
        expect(metadata.scopes_supported).toContain('leads:enrich');
      }
    });
  });
});
