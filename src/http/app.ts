import { randomUUID } from 'node:crypto';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import { SCOPES } from '../auth/scopes.js';
import { type Logger, logger as rootLogger } from '../logger.js';
import { createToolCatalog } from '../mcp/catalog.js';
import { loadViewResources } from '../mcp/view-resources.js';
import type { Metrics } from '../metrics.js';
import type { OAuthServer } from '../oauth/provider.js';
import { METADATA_CACHE_CONTROL, OAUTH_ROUTES } from '../oauth/routes.js';
import { createPages } from '../pages/index.js';
import type { Services } from '../services.js';
import { AddressLimiter } from '../stores/address-limiter.js';
import type { AnyToolDefinition } from '../tools/define-tool.js';
import { limitPerAddress } from './address-limits.js';
import { authenticate, challengeStepUps } from './auth-middleware.js';
import { rejectForeignHosts, rejectForeignOrigins, servedNames } from './dns-rebinding.js';
import { healthz, readyz } from './health.js';
import {
  bodyErrorsAsJsonRpc,
  checkProtocolVersionHeader,
  classifyEra,
  MAX_BODY_BYTES,
  refuseUnservedEncodings,
  requireJsonRpcMembers,
  requireServedParams,
  requireSingleJsonRpcMessage,
  serveMcp,
} from './mcp-endpoint.js';
import { requestState, sendJsonRpcError } from './request-state.js';
import { routeLabel } from './route-label.js';
import { createCredentialVerifier } from './verify-credential.js';

/** JSON-RPC's generic "server error", for refusals that have no code of their own. */
const JSON_RPC_SERVER_ERROR = -32000;

export interface AppDeps {
  services: Services;
  tools: readonly AnyToolDefinition[];
  /** The authorization server: its endpoints are mounted here, and `/mcp` checks its access tokens. */
  oauth: OAuthServer;
  /** Tests move time to cross minute windows and UTC midnights. */
  clock?: () => Date;
  logger?: Logger;
}

export function createApp(deps: AppDeps): Express {
  const { services } = deps;
  const { BASE_URL, OAUTH_REGISTRATIONS_PER_MINUTE, TRUST_PROXY, UNAUTHENTICATED_CALLS_PER_MINUTE } =
    services.config;
  const clock = deps.clock ?? (() => new Date());
  const catalog = createToolCatalog(deps.tools);
  // Read here, once: a server whose views were never built stops at start, saying how to build them.
  const viewResources = loadViewResources(catalog.views);
  const baseLogger = deps.logger ?? rootLogger;

  const served = servedNames(services.config);

  const app = express();
  app.disable('x-powered-by');
  // Which hops may say who the client is: the failed-authentication limiter counts per `req.ip`.
  app.set('trust proxy', TRUST_PROXY);
  app.use(trackRequests(baseLogger, services.metrics));

  // Probes reach these by whatever address the orchestrator uses, and they hold nothing to steal.
  app.get('/healthz', healthz);
  app.get('/readyz', readyz(services));
  app.use(rejectForeignHosts(served));
  const resourceMetadata: RequestHandler = (_req, res) => {
    res.set('Cache-Control', METADATA_CACHE_CONTROL).json({
      resource: `${BASE_URL}/mcp`,
      authorization_servers: [BASE_URL],
      scopes_supported: SCOPES,
      bearer_methods_supported: ['header'],
    });
  };
  const resourceMetadataPaths = [
    '/.well-known/oauth-protected-resource',
    '/.well-known/oauth-protected-resource/mcp',
  ];
  // Browser-based clients (the MCP Inspector) read it and register from their own origin.
  const answerPreflight: RequestHandler = (_req, res) => {
    res.status(204).end();
  };
  app.options(resourceMetadataPaths, corsForAnyOrigin('GET'), answerPreflight);
  app.get(resourceMetadataPaths, corsForAnyOrigin('GET'), resourceMetadata);
  app.options(OAUTH_ROUTES.registration, corsForAnyOrigin('POST'), answerPreflight);
  app.post(
    OAUTH_ROUTES.registration,
    corsForAnyOrigin('POST'),
    limitPerAddress(
      new AddressLimiter(services.addressBudgets, {
        name: 'registration',
        perMinute: OAUTH_REGISTRATIONS_PER_MINUTE,
      }),
      'client registrations',
      clock,
    ),
  );
  // The library reads its own request bodies: no body parser may run before it.
  app.use(deps.oauth.router);
  // Sign-in, consent, sign-up and the account pages; they parse their own (urlencoded) forms.
  app.use(
    createPages({
      services,
      config: services.config,
      provider: deps.oauth.provider,
      logger: baseLogger,
      now: clock,
    }),
  );

  app.use('/mcp', rejectForeignOrigins(served));
  app.post(
    '/mcp',
    authenticate({
      verify: createCredentialVerifier({
        apiKeys: services.apiKeys,
        users: services.users,
        verifyAccessToken: deps.oauth.verifyAccessToken,
        logger: baseLogger,
        now: clock,
      }),
      accounts: services.accounts,
      failedAuthLimiter: new AddressLimiter(services.addressBudgets, {
        name: 'failed_auth',
        perMinute: UNAUTHENTICATED_CALLS_PER_MINUTE,
      }),
      metrics: services.metrics,
      baseUrl: BASE_URL,
      now: clock,
    }),
    refuseUnservedEncodings,
    // Any content type is read as JSON: scripts often post JSON without saying so.
    express.json({ limit: MAX_BODY_BYTES, strict: false, type: () => true }),
    bodyErrorsAsJsonRpc,
    requireSingleJsonRpcMessage,
    // The body says which era a message is of, so the headers are judged once it is read.
    classifyEra,
    checkProtocolVersionHeader,
    requireJsonRpcMembers,
    requireServedParams,
    serveMcp({ catalog, viewResources, services, clock, logger: baseLogger }),
    challengeStepUps(BASE_URL),
  );
  // Stateless: there is no stream to open with GET and no session to end with DELETE.
  app.all('/mcp', (_req, res) => {
    res.set('Allow', 'POST');
    sendJsonRpcError(res, 405, JSON_RPC_SERVER_ERROR, 'Method not allowed: this endpoint takes POST only.');
  });

  app.use((_req, res) => {
    res
      .status(404)
      .json({ error: 'not_found', error_description: 'No such path. The MCP endpoint is POST /mcp.' });
  });
  app.use(answerUnexpectedErrors);
  return app;
}

/** Public documents any web page may read, and client registration, which any web page may attempt. */
function corsForAnyOrigin(method: 'GET' | 'POST'): RequestHandler {
  return (_req, res, next) => {
    res.set({
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': method,
      'Access-Control-Allow-Headers': 'Content-Type, MCP-Protocol-Version',
      'Access-Control-Max-Age': '3600',
    });
    next();
  };
}

/**
 * Every request gets an id, returned as `X-Request-Id` and carried by every log line about it; once
 * answered, it is logged and counted by the route pattern that answered it.
 */
function trackRequests(baseLogger: Logger, metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    const requestId = randomUUID();
    const startedAt = Date.now();
    const state = requestState(res);
    state.requestId = requestId;
    state.logger = baseLogger.child({ request_id: requestId });
    res.set('X-Request-Id', requestId);
    res.on('finish', () => {
      const route = routeLabel(req);
      const durationMs = Date.now() - startedAt;
      state.logger.info('request', {
        method: req.method,
        route,
        path: req.path,
        status: res.statusCode,
        duration_ms: durationMs,
      });
      metrics.httpRequestFinished(req.method, route, res.statusCode, durationMs);
    });
    next();
  };
}

const answerUnexpectedErrors: ErrorRequestHandler = (error, req, res, _next) => {
  const state = requestState(res);
  state.logger.error('request failed unexpectedly', {
    error,
    stack: error instanceof Error ? error.stack : undefined,
  });
  if (res.headersSent) return;
  const message = `Internal error; report request id ${state.requestId} if it keeps happening.`;
  if (req.path === '/mcp') return sendJsonRpcError(res, 500, ProtocolErrorCode.InternalError, message);
  res.status(500).json({ error: 'internal', error_description: message });
};
