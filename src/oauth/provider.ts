import { isIP } from 'node:net';
import express, { type RequestHandler } from 'express';
import type { JWK } from 'jose';
import Provider, {
  type Client,
  type Configuration,
  errors,
  type Grant,
  type KoaContext,
  type KoaContextWithOIDC,
  type ResourceServer,
} from 'oidc-provider';
import { type AccessTokenCheck, accessTokenAudience, verifyAccessTokenJwt } from '../auth/access-token.js';
import { isScope, SCOPES, type Scope, STEP_UP_SCOPES } from '../auth/scopes.js';
import type { Config } from '../config.js';
import { addressBucket } from '../domain/client-address.js';
import { causedByOutage, OUTAGE_RETRY_AFTER_SECONDS, Unavailable } from '../errors.js';
import type { Logger } from '../logger.js';
import { escapeHtml } from '../pages/html.js';
import type { Services } from '../services.js';
import type { OAuthArtifactsStore } from '../stores/oauth-artifacts.js';
import { applyClientRules, RESPONSE_MODES, RULED_CLIENT_PROPERTIES } from './client-rules.js';
import { isGrantLive } from './grants.js';
import { mongoAdapter } from './mongo-adapter.js';
import { AuthorizationServerUnavailable, outagesAsOAuthErrors } from './outage.js';
import { OAUTH_ROUTES } from './routes.js';
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
   * How client metadata documents are fetched. Tests that serve one from this machine with a
   * certificate of their own pass theirs; the library's guard against private addresses stays.
   */
  fetch?: typeof globalThis.fetch;
}

export async function createOAuthProvider(deps: OAuthServerDeps): Promise<OAuthServer> {
  const { services, config, logger } = deps;
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
      long: { signed: true, httpOnly: true, sameSite: 'lax' },
      short: { signed: true, httpOnly: true, sameSite: 'lax' },
    },
    features: {
      devInteractions: { enabled: false },
      // Tokens are bearer tokens: `/mcp` does not check DPoP proofs, so the library must not bind tokens to them.
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      rpInitiatedLogout: { enabled: false },
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
        allowFetch: (_ctx: KoaContextWithOIDC, clientId: string) =>
          config.localDevelopment || !namesPrivateHost(clientId),
        cacheDuration: { min: 60, max: 24 * 3600 },
      },
    },
    ...(config.localDevelopment && { fetch: developmentFetch(deps.fetch) }),
    fetchResponseBodyLimits: { 'client_id metadata document': 5 * 1024 },
    // Our registration rules, applied to every client: dynamically registered, from a metadata document, or stored.
    extraClientMetadata: { properties: RULED_CLIENT_PROPERTIES, validator: applyClientRules },
    clientBasedCORS: (_ctx: KoaContextWithOIDC, origin: string, client: Client) =>
      origin !== 'null' && client.redirectUris.some((uri) => URL.parse(uri)?.origin === origin),
    interactions: {
      url: (_ctx: KoaContextWithOIDC, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
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
  // Behind TLS termination the protocol and client address come from the proxy's headers.
  provider.proxy = config.TRUST_PROXY !== false;
  provider.use(answerOutages);
  provider.use(advertiseQueryResponseModeOnly);
  provider.on('server_error', (_ctx, error) => logger.error('authorization server error', { error }));

  const publicJwks = publicKeys(signingKeys.keys);
  return {
    provider,
    router: oauthRouter(provider),
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
 * A metadata document's host must be a public name: an IP literal in a private, loopback or
 * link-local range, or `localhost`, is refused before any request. Names resolving to such an
 * address are refused by the library when it connects.
 */
function namesPrivateHost(clientId: string): boolean {
  const host = URL.parse(clientId)
    ?.hostname.replace(/^\[|\]$/g, '')
    .toLowerCase();
  if (host === undefined) return true;
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 0) return false;
  return isPrivateAddress(host);
}

function isPrivateAddress(address: string): boolean {
  if (isIP(address) === 4) {
    const [a = 0, b = 0] = address.split('.').map(Number);
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    );
  }
  const bucket = addressBucket(address);
  // An IPv4-mapped address is judged as IPv4.
  if (isIP(bucket) === 4) return isPrivateAddress(bucket);
  const first = address.split(':')[0]?.toLowerCase() ?? '';
  return (
    address === '::' ||
    address === '::1' ||
    /^f[cd]/.test(first) ||
    /^fe[89ab]/.test(first) ||
    /^ff/.test(first)
  );
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
function oauthRouter(provider: Provider): express.Router {
  const handle = provider.callback();
  const toProvider: RequestHandler = (req, res) => handle(req, res);

  const router = express.Router();
  router.all(
    [
      `${OAUTH_ROUTES.authorization}{/:uid}`,
      OAUTH_ROUTES.token,
      OAUTH_ROUTES.registration,
      `${OAUTH_ROUTES.registration}/:clientId`,
      OAUTH_ROUTES.revocation,
      OAUTH_ROUTES.jwks,
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
    ],
    toProvider,
  );
  return router;
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
 * The library always lists `form_post`, `fragment` and `query` in its metadata, whatever its
 * clients may use; ours may use the modes of src/oauth/client-rules.ts only, and the metadata says so.
 */
async function advertiseQueryResponseModeOnly(ctx: KoaContext, next: () => Promise<void>): Promise<void> {
  await next();
  if (ctx.oidc?.route === 'discovery' && ctx.status === 200) {
    (ctx.body as Record<string, unknown>).response_modes_supported = [...RESPONSE_MODES];
  }
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
