import type { Request, Response } from 'express';
import type { Credential } from '../auth/credential.js';
import type { Logger } from '../logger.js';
import type { Account } from '../stores/accounts.js';

/** The authenticated caller, as the auth middleware hands it to the MCP endpoint. */
interface Principal {
  account: Account;
  credential: Credential;
}

/**
 * The protocol era of an `/mcp` message (docs/protocol.md, "Protocol revisions"): `legacy` for the
 * 2025 revisions (`initialize`, no envelope), `modern` for 2026-07-28 (a `_meta` envelope on every
 * request), with the revision its envelope names.
 */
export type McpEra = { kind: 'legacy' } | { kind: 'modern'; revision: string | undefined };

/** What the middlewares attach to one request, kept in `res.locals` under these names only. */
export interface RequestState {
  requestId: string;
  logger: Logger;
  principal?: Principal;
  era?: McpEra;
}

export function requestState(res: Response): RequestState {
  return res.locals as RequestState;
}

/** A JSON-RPC error outside any tool call (protocol faults, refusals before the transport). */
export function sendJsonRpcError(
  res: Response,
  httpStatus: number,
  code: number,
  message: string,
  id: string | number | null = null,
  data?: unknown,
): void {
  res
    .status(httpStatus)
    .json({ jsonrpc: '2.0', id, error: { code, message, ...(data !== undefined && { data }) } });
}

/** Whether the request is for `/mcp`, whose answers are JSON-RPC, wherever the middleware is mounted. */
export function isMcpEndpoint(req: Request): boolean {
  return /^\/mcp\/?$/.test(req.baseUrl + req.path);
}

/** Text from the client, quoted in an answer and cut short: an answer need not echo 16 KiB back. */
export function quoted(clientText: string): string {
  return `"${clientText.length > 100 ? `${clientText.slice(0, 100)}…` : clientText}"`;
}
