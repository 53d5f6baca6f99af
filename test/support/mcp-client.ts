import http from 'node:http';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableHTTPClientTransportV2,
  type VersionNegotiationMode,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** An SDK client connected (initialized) to `url` with a bearer credential, as MCP clients do it. */
export async function connectClient(url: string, bearerToken: string): Promise<Client> {
  const client = new Client({ name: 'hiring-leads-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${bearerToken}` } },
  });
  await client.connect(transport);
  return client;
}

/**
 * The SDK's v2 client connected to `url` with a bearer credential, negotiating as `mode` says:
 * `{ pin: '2026-07-28' }` speaks that revision or fails, `auto` probes `server/discover` and falls
 * back to `initialize`, `legacy` is the 2025 handshake.
 */
export async function connectClientV2(
  url: string,
  bearerToken: string,
  mode: VersionNegotiationMode,
): Promise<ClientV2> {
  const client = new ClientV2(
    { name: 'hiring-leads-tests', version: '2.0.0' },
    { versionNegotiation: { mode } },
  );
  await client.connect(
    new StreamableHTTPClientTransportV2(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${bearerToken}` } },
    }),
  );
  return client;
}

export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or `undefined` when it is not JSON. */
  json: unknown;
}

/**
 * One plain HTTP POST, like `curl`: no MCP client, no `initialize`. `body` is sent as is when it is
 * a string (for malformed JSON) or bytes (for compressed bodies), else as JSON. Only the headers
 * given are sent, besides the bearer token when one is given.
 */
export async function postRaw(
  url: string,
  body: unknown,
  options: { token?: string; headers?: Record<string, string> } = {},
): Promise<RawAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`;
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body),
  });
  return answerOf(response.status, response.headers, await response.text());
}

/** What `/mcp` at `url` answers a `get_account_usage` call with this bearer credential, in one JSON reply. */
export function accountUsageAnswer(url: string, token: string): Promise<RawAnswer> {
  return postRaw(url, toolCallRequest('get_account_usage'), {
    token,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
  });
}

/**
 * One request through `node:http`, for the headers `fetch` will not let a caller choose: it
 * always sends its own `Host`.
 */
export async function requestRaw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          resolve(answerOf(response.statusCode ?? 0, headers, Buffer.concat(chunks).toString()));
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

function answerOf(status: number, headers: Headers, text: string): RawAnswer {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status, headers, text, json };
}

let nextId = 1;

/** A `tools/call` JSON-RPC request, as a script would send it. */
export function toolCallRequest(name: string, args: Record<string, unknown> = {}) {
  return { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args } };
}

/** Calls a tool with a raw POST and returns the JSON-RPC `result` (a tool result). */
export async function callToolRaw(
  url: string,
  token: string,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  const answer = await postRaw(url, toolCallRequest(name, args), {
    token,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
  });
  const body = answer.json as { result?: CallToolResult; error?: unknown } | undefined;
  if (answer.status !== 200 || body?.result === undefined) {
    throw new Error(`tools/call ${name} answered ${answer.status}: ${answer.text}`);
  }
  return body.result;
}

/** The `{ code, message, details }` of an `isError` tool result. */
export function toolError(result: CallToolResult): {
  code: string;
  message: string;
  details: Record<string, unknown>;
} {
  if (result.isError !== true) throw new Error(`Expected an error result, got ${JSON.stringify(result)}`);
  const [item] = result.content;
  if (item?.type !== 'text') throw new Error('An error result must hold one text item');
  return (
    JSON.parse(item.text) as { error: { code: string; message: string; details: Record<string, unknown> } }
  ).error;
}
