/**
 * The benchmark's HTTP client for /mcp: node:http with keep-alive connections, about as lean as the
 * Elasticsearch client's pool on the direct path (`fetch` costs the benchmark process several tenths
 * of a millisecond more per call, taken from the CPUs the servers share).
 */
import http from 'node:http';
import { LEGACY_REVISIONS, MODERN_REVISION } from '../src/mcp/server.js';

/**
 * The protocol revision a call is sent in: 2025-11-25 as a script sends it (no envelope, no
 * `initialize`), or 2026-07-28 with its `_meta` envelope and the headers mirroring it.
 */
export type Era = 'legacy' | 'modern';

export const ERA_REVISIONS: Readonly<Record<Era, string>> = {
  legacy: LEGACY_REVISIONS[0] as string,
  modern: MODERN_REVISION,
};

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
  'io.modelcontextprotocol/clientCapabilities': {},
};

export interface ToolAnswer {
  isError: boolean;
  /** The error's `code` when `isError`. */
  errorCode?: string;
  structuredContent?: Record<string, unknown>;
}

const agent = new http.Agent({ keepAlive: true });

/** Sends one `tools/call` with an API key; a JSON-RPC error or a non-200 status throws. */
export async function callTool(
  url: URL,
  apiKey: string,
  id: number,
  tool: string,
  args: Record<string, unknown>,
  era: Era = 'legacy',
): Promise<ToolAnswer> {
  const params = { name: tool, arguments: args, ...(era === 'modern' && { _meta: ENVELOPE }) };
  const { status, text } = await postJson(
    url,
    {
      Authorization: `Bearer ${apiKey}`,
      Accept: 'application/json',
      ...(era === 'modern' && {
        'MCP-Protocol-Version': MODERN_REVISION,
        'Mcp-Method': 'tools/call',
        'Mcp-Name': tool,
      }),
    },
    JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
  );
  const body = JSON.parse(text) as {
    result?: {
      isError?: boolean;
      content?: Array<{ text: string }>;
      structuredContent?: Record<string, unknown>;
    };
  };
  if (status !== 200 || body.result === undefined) throw new Error(`${tool} failed: ${status} ${text}`);
  const { isError = false, content, structuredContent } = body.result;
  const errorCode = isError
    ? (JSON.parse(content?.[0]?.text ?? '{}') as { error?: { code?: string } }).error?.code
    : undefined;
  return {
    isError,
    ...(errorCode && { errorCode }),
    ...(structuredContent && { structuredContent }),
  };
}

export function closeConnections(): void {
  agent.destroy();
}

function postJson(
  url: URL,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          ...headers,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
