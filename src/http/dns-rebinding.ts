import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Request, RequestHandler, Response } from 'express';
import { isMcpEndpoint, quoted, sendJsonRpcError } from './request-state.js';

/** The names under which a browser reaches this machine itself. */
const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** A `Host` header: a DNS name or IP literal, then an optional port. Nothing else (no userinfo). */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i;

export interface ServedNames {
  /** The `Host` names served (any port). */
  hosts: ReadonlySet<string>;
  /** The browser origins allowed to call `/mcp`. */
  origins: ReadonlySet<string>;
}

/**
 * DNS rebinding points a name the attacker controls at this server, so a page of that name can
 * talk to it as same-origin: its requests then carry the attacker's `Host`. A loopback `BASE_URL`
 * serves only loopback names, and browser origins of its own port; any other serves its own
 * name and origin. `ALLOWED_HOSTS` and `ALLOWED_ORIGINS` add to either.
 */
export function servedNames(settings: {
  BASE_URL: string;
  ALLOWED_HOSTS: readonly string[];
  ALLOWED_ORIGINS: readonly string[];
}): ServedNames {
  const base = new URL(settings.BASE_URL);
  const ownHosts = LOOPBACK_HOSTS.includes(base.hostname) ? LOOPBACK_HOSTS : [base.hostname];
  const ownOrigins = ownHosts.map((hostname) => {
    const origin = new URL(base.origin);
    origin.hostname = hostname;
    return origin.origin;
  });
  return {
    hosts: new Set([...ownHosts, ...settings.ALLOWED_HOSTS]),
    origins: new Set([...ownOrigins, ...settings.ALLOWED_ORIGINS]),
  };
}

/** 403 for a request whose `Host` is not one of the served names. */
export function rejectForeignHosts(served: ServedNames): RequestHandler {
  return (req, res, next) => {
    const host = req.headers.host ?? '';
    const hostname = HOST_HEADER.exec(host)?.[1]?.toLowerCase();
    if (hostname !== undefined && served.hosts.has(hostname)) return next();
    refuse(req, res, `This server does not answer to the host name ${quoted(host)}.`);
  };
}

/** 403 for a browser request from an origin other than the allowed ones. */
export function rejectForeignOrigins(served: ServedNames): RequestHandler {
  return (req, res, next) => {
    const origin = req.get('origin');
    if (origin === undefined || served.origins.has(originOf(origin))) return next();
    refuse(req, res, `Requests from the origin ${quoted(origin)} are not allowed.`);
  };
}

function originOf(url: string): string {
  return URL.canParse(url) ? new URL(url).origin : url;
}

/** In the endpoint's own language: JSON-RPC on `/mcp`, the OAuth-style body elsewhere. */
function refuse(req: Request, res: Response, message: string): void {
  if (isMcpEndpoint(req)) sendJsonRpcError(res, 403, ProtocolErrorCode.InvalidRequest, message);
  else res.status(403).json({ error: 'forbidden', error_description: message });
}
