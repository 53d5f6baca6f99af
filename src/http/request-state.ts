import type { Request, Response } from 'express';
import type { Credential } from '../auth/credential.js';
import type { Logger } from '../logger.js';
import type { Account } from '../stores/accounts.js';

/** The authenticated caller, as the auth middleware hands it to the MCP endpoint. */
interface Principal {
  account: Account;
  credential: Credential;
}

/** What the middlewares attach to one request, kept in `res.locals` under these names only. */
export interface RequestState {
  requestId: string;
  logger: Logger;
  principal?: Principal;
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
): void {
  res.status(httpStatus).json({ jsonrpc: '2.0', id, error: { code, message } });
}

/** Whether the request is for `/mcp`, whose answers are JSON-RPC, wherever the middleware is mounted. */
export function isMcpEndpoint(req: Request): boolean {
  return /^\/mcp\/?$/.test(req.baseUrl + req.path);
}

/** Text from the client, quoted in an answer and cut short: an answer need not echo 16 KiB back. */
export function quoted(clientText: string): string {
  return `"${clientText.length > 100 ? `${clientText.slice(0, 100)}…` : clientText}"`;
}
