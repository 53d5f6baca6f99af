import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import express, { type RequestHandler } from 'express';
import type { JWK } from 'jose';
import Provider, {
  type Client,
  type Configuration,
  errors,
  type Grant,
  interactionPolicy,
  type KoaContext,
  type KoaContextWithOIDC,
  type ResourceServer,
} from 'oidc-provider';
import { type AccessTokenCheck, accessTokenAudience, verifyAccessTokenJwt } from '../auth/access-token.js';
import { isScope, SCOPES, type Scope, STEP_UP_SCOPES } from '../auth/scopes.js';
import type { Config } from '../config.js';
import { causedByOutage, OUTAGE_RETRY_AFTER_SECONDS, Unavailable } from '../errors.js';
import type { Logger } from '../logger.js';
import { escapeHtml } from '../pages/html.js';
import { PageCookies } from '../pages/security.js';
import { signOutPages } from '../pages/sign-out.js';
import type { Services } from '../services.js';
import { AddressLimiter } from '../stores/address-limiter.js';
import { type OAuthArtifactsStore, UNUSED_CLIENT_TTL_MS } from '../stores/oauth-artifacts.js';
import { endPageSessionWithProviderSession, providerCookieOptions } from './browser-session.js';
import { applyClientRules, RESPONSE_MODES, RULED_CLIENT_PROPERTIES } from './client-rules.js';
import { isGrantLive } from './grants.js';
import {
  METADATA_DOCUMENT_MAX_BYTES,
  mayFetchFrom,
  publicOnlyFetch,
  type ResolveHost,
  resolveWithSystem,
  TooManyMetadataFetches,
} from './metadata-documents.js';
import { mongoAdapter } from './mongo-adapter.js';
import { AuthorizationServerUnavailable, outagesAsOAuthErrors } from './outage.js';
import { pinRequestOrigin } from './request-origin.js';
import { METADATA_CACHE_CONTROL, OAUTH_ROUTES } from './routes.js';
import { ACCESS_TOKEN_ALGORITHM, cookieSigningKeys, loadSigningKeys, publicKeys } from './signing-keys.js';

/** What the rest of the server gets from the authorization server. */
export interface OAuthServer {
  /** For the sign-in and consent pages: `interactionDetails`, `interactionFinished`, `Grant`. */
  provider: Provider;
  /** The protocol endpoints and the well-known documents; mount before any body parser. */
  router: express.Router;
  /** The resource server's check of a bearer JWT: signature, issuer, audience, times, and a live grant. */
  verifyAccessToken(token: string): Promise<AccessTokenCheck>;
}

/** An hour: the longest the resource server accepts (src/auth/access-token.ts). */
const ACCESS_TOKEN_TTL_SECONDS = 3600;
const AUTHORIZATION_CODE_TTL_SECONDS = 60;
const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
/** A connection lasts this long after consent; then the person signs in and approves again. */
const GRANT_TTL_SECONDS = 90 * 24 * 3600;
const SESSION_TTL_SECONDS = 14 * 24 * 3600;
const INTERACTION_TTL_SECONDS = 3600;

export interface OAuthServerDeps {
  services: Services;
  config: Config;
  logger: Logger;
  /**
   * How client metadata documents are fetched in local development (NODE_ENV=development on a
   * loopback HOST), where they may come from this machine: tests serving one with a certificate of
   * their own pass theirs. Elsewhere documents come from public addresses only (`resolveHost`).
   */
  fetch?: typeof globalThis.fetch;
  /** How a document's host name is resolved before it is fetched; the system's resolver by default. */
  resolveHost?: ResolveHost;
  /** The wall clock of the per-address budgets, as the app's (`createApp`'s `clock`). */
  clock?: () => Date;
}

export async function createOAuthProvider(deps: OAuthServerDeps): Promise<OAuthServer> {
  const { services, config, logger } = deps;
  const clock = deps.clock ?? (() => new Date());
  const artifacts = services.oauthArtifacts;
  const issuer = config.BASE_URL;
  const resource = accessTokenAudience(issuer);
  await artifacts.ensureIndexes().catch((error: unknown) => {
    // As for the other indexes: the server starts without MongoDB, and the next start creates them.
    logger.warn('could not create the OAuth indexes at start-up', { error });
  });
  const signingKeys = await loadSigningKeys({
    configured: config.OAUTH_JWKS,
    store: services.oauthSigningKeys,
    now: new Date(),
  });

  const resourceServer = mcpResourceServer(issuer);
  const https = new URL(issuer).protocol === 'https:';
  const metadataFetches = new AddressLimiter(services.addressBudgets, {
    name: 'metadata_fetch',
    perMinute: config.CLIENT_METADATA_FETCHES_PER_MINUTE,
  });
  const endSessionPages = signOutPages({ users: services.users, https });

  const configuration: Configuration = {
    adapter: mongoAdapter(artifacts, outagesAsOAuthErrors),
    jwks: { keys: signingKeys.keys },
    findAccount: (_ctx: KoaContextWithOIDC, sub: string) =>
      outagesAsOAuthErrors(async () => {
        const user = await services.users.findById(sub);
        if (user === null || user.status !== 'active') return undefined;
        return { accountId: user._id, claims: () => ({ sub: user._id, account_id: user.account_id }) };
      }),
    scopes: [...SCOPES],
    // Authorization code with PKCE (S256, the only method the library knows) and nothing else.
    responseTypes: ['code'],
    // Every client, confidential ones included: a client secret does not protect a code from interception.
    pkce: { required: () => true },
    // Public clients, and confidential ones with the secret the registration issues (Claude.ai's connector registers so).
    clientAuthMethods: ['none', 'client_secret_post', 'client_secret_basic'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: ACCESS_TOKEN_ALGORITHM,
    },
    // OAuth 2.1: the redirect URI is always sent and compared exactly (loopback ports aside).
    allowOmittingSingleRegisteredRedirectUri: false,
    routes: { ...OAUTH_ROUTES },
    cookies: {
      keys: cookieSigningKeys(config.SERVER_SECRET),
      long: providerCookieOptions(https),
      short: providerCookieOptions(https),
    },
    features: {
      devInteractions: { enabled: false },
      // Tokens are bearer tokens: `/mcp` does not check DPoP proofs, so the library must not bind tokens to them.
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      // `/session/end` signs the browser out, and the account pages with it (src/oauth/browser-session.ts).
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx: KoaContextWithOIDC) =>
          outagesAsOAuthErrors(() => endSessionPages.logoutSource(ctx)),
        postLogoutSuccessSource: endSessionPages.postLogoutSuccessSource,
      },
      userinfo: { enabled: false },
      registration: { enabled: true, initialAccessToken: false, issueRegistrationAccessToken: false },
      revocation: {
        enabled: true,
        // A client may revoke its own tokens only; another's are ignored (RFC 7009 answers 200 all the same).
        allowedPolicy: (_ctx: KoaContextWithOIDC, client: Client, token: { clientId?: string }) =>
          token.clientId === client.clientId,
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        // A refresh or code exchange without `resource` is for the resource the grant names.
        useGrantedResource: () => true,
        getResourceServerInfo: (ctx: KoaContextWithOIDC, indicator: string, client: Client) => {
          if (indicator !== resource) {
            throw new errors.InvalidTarget(`this server issues tokens for ${resource} only`);
          }
          if (ctx.oidc.route === 'authorization' && ctx.oidc.params)
            applyScopeDefault(ctx.oidc.params, client);
          return resourceServer;
        },
      },
      clientIdMetadataDocument: {
        enabled: true,
        ack: 'draft-02',
        // An unauthenticated request makes the server fetch a URL: each fetch spends from the
        // requester's budget (CLIENT_METADATA_FETCHES_PER_MINUTE); a cached document costs nothing.
        allowFetch: async (ctx: KoaContextWithOIDC, clientId: string) => {
          if (!config.localDevelopment && !mayFetchFrom(clientId)) return false;
          const decision = await metadataFetches.spend(ctx.ip, clock());
          if (decision.allowed) return true;
          ctx.set({ 'Retry-After': String(decision.retryAfterSeconds) });
          throw new TooManyMetadataFetches(decision.retryAfterSeconds);
        },
        cacheDuration: { min: 60, max: 24 * 3600 },
      },
    },
    fetch: config.localDevelopment
      ? developmentFetch(deps.fetch)
      : publicOnlyFetch(deps.resolveHost ?? resolveWithSystem),
    fetchResponseBodyLimits: { 'client_id metadata document': METADATA_DOCUMENT_MAX_BYTES },
    // Our registration rules, applied to every client: dynamically registered, from a metadata document, or stored.
    extraClientMetadata: { properties: RULED_CLIENT_PROPERTIES, validator: applyClientRules },
    clientBasedCORS: (_ctx: KoaContextWithOIDC, origin: string, client: Client) =>
      origin !== 'null' && client.redirectUris.some((uri) => URL.parse(uri)?.origin === origin),
    interactions: {
      url: (_ctx: KoaContextWithOIDC, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
      policy: signInPolicy(),
    },
    // MCP clients do not ask for offline_access, and a connection should outlive the browser session.
    issueRefreshToken: (_ctx: KoaContextWithOIDC, client: Client) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: () => false,
    // Every use of a refresh token replaces it; presenting a replaced one revokes the whole grant (docs/authentication.md).
    rotateRefreshToken: () => true,
    extraTokenClaims: (
      _ctx: KoaContextWithOIDC,
      token: { kind: string; grantId?: string; accountId?: string },
    ) =>
      outagesAsOAuthErrors(async () => {
        if (token.kind !== 'AccessToken' || token.accountId === undefined) return undefined;
        const user = await services.users.findById(token.accountId);
        return { gid: token.grantId, account_id: user?.account_id };
      }),
    loadExistingGrant: (ctx: KoaContextWithOIDC) =>
      outagesAsOAuthErrors(() => loadExistingGrant(ctx, artifacts)),
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: AUTHORIZATION_CODE_TTL_SECONDS,
      RefreshToken: REFRESH_TOKEN_TTL_SECONDS,
      Grant: GRANT_TTL_SECONDS,
      Session: SESSION_TTL_SECONDS,
      Interaction: INTERACTION_TTL_SECONDS,
    },
    renderError,
  };

  const provider = new Provider(issuer, configuration);
  pinRequestOrigin(provider, issuer);
  provider.use(answerOutages);
  provider.use(describeMetadataDocuments);
  provider.use(
    endPageSessionWithProviderSession({
      pageSessions: services.pageSessions,
      pageCookies: new PageCookies({ https }),
      now: () => new Date(),
    }),
  );
  provider.use(expireUnusedRegistrations(services));
  provider.on('server_error', (_ctx, error) => logger.error('authorization server error', { error }));

  const publicJwks = publicKeys(signingKeys.keys);
  return {
    provider,
    router: oauthRouter(provider, resource),
    verifyAccessToken: (token) => verifyAccessToken({ artifacts, keys: publicJwks, issuer, token, logger }),
  };
}

/** The one resource server: `/mcp`, all our scopes, JWT access tokens signed ES256 for its audience alone. */
export function mcpResourceServer(baseUrl: string): ResourceServer {
  return {
    scope: SCOPES.join(' '),
    audience: accessTokenAudience(baseUrl),
    accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
    accessTokenFormat: 'jwt',
    jwt: { sign: { alg: ACCESS_TOKEN_ALGORITHM } },
  };
}

/** Asked for by clients, known to the library, and no scope of `/mcp`: accepted, as before. */
const PROTOCOL_SCOPES: ReadonlySet<string> = new Set(['openid', 'offline_access']);

/** What a request naming none of our scopes gets (docs/authentication.md, "Scopes"): reading, no spending. */
export const DEFAULT_SCOPES: readonly Scope[] = SCOPES.filter((scope) => !STEP_UP_SCOPES.has(scope));

/**
 * RFC 6749 §3.3 at the authorization endpoint, once the client and its redirect URI are known (so
 * a refusal goes back to the client): a scope this server does not know is `invalid_scope`, naming
 * it; a request naming none of ours gets `DEFAULT_SCOPES`, within the scopes the client registered
 * with, and the consent page lists them.
 */
function applyScopeDefault(params: { scope?: unknown }, client: Client): void {
  const requested = typeof params.scope === 'string' ? params.scope.split(' ').filter(Boolean) : [];
  const unknown = requested.find((scope) => !isScope(scope) && !PROTOCOL_SCOPES.has(scope));
  if (unknown !== undefined) {
    throw new errors.InvalidScope(
      `"${unknown}" is not a scope of this server; it knows ${SCOPES.join(', ')}`,
      unknown,
    );
  }
  if (requested.some(isScope)) return;
  const registered = client.metadata().scope;
  const allowed = typeof registered === 'string' ? registered.split(' ') : SCOPES;
  const defaults = DEFAULT_SCOPES.filter((scope) => allowed.includes(scope));
  if (defaults.length === 0) {
    throw new errors.InvalidScope(
      `no scope was asked for, and this client may use none of the defaults (${DEFAULT_SCOPES.join(', ')})`,
    );
  }
  params.scope = [...requested, ...defaults].join(' ');
}

/**
 * Consent is remembered per client: the grant found through this browser's session, else the
 * person's latest live grant to the same client. The consent prompt then asks only for scopes it
 * lacks (the pages add them to this grant).
 */
async function loadExistingGrant(
  ctx: KoaContextWithOIDC,
  artifacts: OAuthArtifactsStore,
): Promise<Grant | undefined> {
  const { oidc } = ctx;
  const clientId = oidc.client?.clientId;
  if (clientId === undefined) return undefined;
  const grantId = oidc.result?.consent?.grantId ?? oidc.session?.grantIdFor(clientId);
  if (grantId) return oidc.provider.Grant.find(grantId);
  const accountId = oidc.session?.accountId;
  if (accountId === undefined) return undefined;
  const latest = await artifacts.latestLiveGrant(accountId, clientId, new Date());
  return latest === null ? undefined : oidc.provider.Grant.find(latest._id);
}

/**
 * In local development metadata documents may come from this machine: the library's guard against
 * private addresses is set aside (it travels as `dispatcher`), and a test's own fetch is used.
 */
function developmentFetch(custom: typeof globalThis.fetch | undefined): typeof globalThis.fetch {
  return (url, options) => {
    const { dispatcher: _guard, ...rest } = (options ?? {}) as RequestInit & { dispatcher?: unknown };
    return (custom ?? globalThis.fetch)(url, rest);
  };
}

async function verifyAccessToken(input: {
  artifacts: OAuthArtifactsStore;
  keys: readonly JWK[];
  issuer: string;
  token: string;
  logger: Logger;
}): Promise<AccessTokenCheck> {
  const check = await verifyAccessTokenJwt({ keys: input.keys, baseUrl: input.issuer }, input.token);
  if (!check.valid) return check;
  const live = await isGrantLive(input.artifacts, {
    grantId: check.claims.grantId,
    userId: check.claims.userId,
    now: new Date(),
    onTouchFailure: (error) => input.logger.warn("could not record a grant's last use", { error }),
  });
  if (!live) return { valid: false, reason: 'The access token was revoked: its grant no longer exists.' };
  return check;
}

/**
 * The authorization server's HTTP surface: the library's endpoints on their own paths only, so the
 * rest of the app keeps its 404s. The library sets CORS on metadata, token and revocation; the app
 * sets it on registration, which it rate-limits in front of this router (src/http/app.ts).
 */
function oauthRouter(provider: Provider, resource: string): express.Router {
  const handle = provider.callback();
  const toProvider: RequestHandler = (req, res) => handle(req, res);

  const router = express.Router();
  router.post(OAUTH_ROUTES.token, refuseOtherResources(resource, handle));
  router.all(
    [
      `${OAUTH_ROUTES.authorization}{/:uid}`,
      OAUTH_ROUTES.token,
      OAUTH_ROUTES.registration,
      `${OAUTH_ROUTES.registration}/:clientId`,
      OAUTH_ROUTES.revocation,
      OAUTH_ROUTES.jwks,
      `${OAUTH_ROUTES.end_session}{/:step}`,
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
    ],
    toProvider,
  );
  return router;
}

/** The library's limit on a request body; the token endpoint's is read here first, with the same one. */
const TOKEN_REQUEST_MAX_BYTES = 56 * 1024;

/**
 * A token request for another resource is refused before the library sees it: the library resolves
 * `resource` only after it has used the code (or rotated the refresh token), so the client's
 * corrected retry would count as a replay and revoke the whole grant. The form is read here, then
 * handed to the library as the request it would have read itself (`requestWithBody`).
 */
function refuseOtherResources(
  resource: string,
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): RequestHandler {
  // As the library reads it: the form as sent, never inflated.
  const readForm = express.raw({
    type: 'application/x-www-form-urlencoded',
    limit: TOKEN_REQUEST_MAX_BYTES,
    inflate: false,
  });
  return (req, res) => {
    readForm(req, res, (error?: unknown) => {
      const refuse = (code: string, description: string) =>
        res
          .status(400)
          .set('Cache-Control', 'no-store')
          .json({ error: code, error_description: description });
      if (error !== undefined) return refuse('invalid_request', 'failed to parse the request body');
      // Not a form: left unread, for the library to refuse.
      if (!Buffer.isBuffer(req.body)) return handle(req, res);
      const asked = new URLSearchParams(req.body.toString('utf8')).getAll('resource');
      if (!asked.every((indicator) => indicator === resource)) {
        return refuse('invalid_target', `this server issues tokens for ${resource} only`);
      }
      handle(requestWithBody(req, req.body), res);
    });
  };
}

/**
 * The same request with its body still to read: what the library reads bodies from. It carries what
 * the library and src/oauth/request-origin.ts read of express's request (the client address, the
 * URL it was mounted under).
 */
function requestWithBody(req: express.Request, body: Buffer): IncomingMessage {
  // A plain stream: an IncomingMessage of its own would close the shared socket once read.
  const replay = Readable.from([body], { objectMode: false });
  return Object.assign(replay, {
    socket: req.socket,
    method: req.method,
    url: req.url,
    headers: req.headers,
    rawHeaders: req.rawHeaders,
    httpVersion: req.httpVersion,
    httpVersionMajor: req.httpVersionMajor,
    httpVersionMinor: req.httpVersionMinor,
    originalUrl: req.originalUrl,
    baseUrl: req.baseUrl,
    ip: req.ip,
  }) as unknown as IncomingMessage;
}

/**
 * Every 503 asks the client to retry after a few seconds. An outage that escapes the library's own
 * error handlers (its session is saved after them) gets the same answer as the ones they catch.
 */
async function answerOutages(ctx: KoaContext, next: () => Promise<void>): Promise<void> {
  try {
    await next();
  } catch (error) {
    if (!causedByOutage(error)) throw error;
    const unavailable = new AuthorizationServerUnavailable(new Unavailable('database'));
    const out = { error: unavailable.error, error_description: unavailable.error_description };
    ctx.remove('Location');
    ctx.status = 503;
    if (ctx.accepts('json', 'html') === 'html') renderError(ctx, out);
    else ctx.body = out;
  }
  if (ctx.status === 503) ctx.set('Retry-After', String(OUTAGE_RETRY_AFTER_SECONDS));
}

/**
 * The authorization server's metadata and key set: built from BASE_URL alone (src/oauth/request-origin.ts),
 * so every client may be given the same copy, and caches may keep it a while. The library always
 * lists `form_post`, `fragment` and `query` in its metadata, whatever its clients may use; ours may
 * use the modes of src/oauth/client-rules.ts only, and the metadata says so.
 */
async function describeMetadataDocuments(ctx: KoaContext, next: () => Promise<void>): Promise<void> {
  await next();
  const route = ctx.oidc?.route;
  if ((route !== 'discovery' && route !== 'jwks') || ctx.status !== 200) return;
  ctx.set('Cache-Control', METADATA_CACHE_CONTROL);
  if (route === 'discovery') {
    (ctx.body as Record<string, unknown>).response_modes_supported = [...RESPONSE_MODES];
  }
}

/**
 * The library's prompts, and one more reason to ask for sign-in: the browser's session belongs to a
 * user who has since been suspended or deleted (`findAccount` finds no one). The person signs in
 * again, and signing in as someone else ends the old session (the library's own account switch),
 * instead of the request failing.
 */
function signInPolicy() {
  const policy = interactionPolicy.base();
  policy
    .get('login')
    ?.checks.push(
      new interactionPolicy.Check(
        'account_unavailable',
        'the signed-in user is suspended or no longer exists',
        (ctx) => ctx.oidc.session?.accountId !== undefined && ctx.oidc.account === undefined,
      ),
    );
  return policy;
}

/**
 * A client registered dynamically is deleted once nobody needs it (docs/authentication.md,
 * "Registering a client"): a week after its registration if nobody approved it; the consent page
 * keeps an approved one for as long as its grant lasts, and a week more.
 */
function expireUnusedRegistrations(services: Services) {
  return async (ctx: KoaContext, next: () => Promise<void>): Promise<void> => {
    await next();
    if (ctx.oidc?.route !== 'registration' || ctx.status !== 201) return;
    const clientId = (ctx.body as { client_id?: unknown }).client_id;
    if (typeof clientId !== 'string') return;
    await services.oauthArtifacts.expireUnusedClient(clientId, new Date(Date.now() + UNUSED_CLIENT_TTL_MS));
  };
}

/** The library's error page, without its external font and with nothing of the request echoed but the error. */
function renderError(
  ctx: { type: string; body: unknown },
  out: { error: string; error_description?: string },
): void {
  ctx.type = 'html';
  ctx.body = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Sign-in error</title></head>
<body><main><h1>Sign-in could not continue</h1>
<p><strong>${escapeHtml(out.error)}</strong>: ${escapeHtml(out.error_description ?? '')}</p>
<p>Go back to the application and try connecting again.</p></main></body></html>`;
}
