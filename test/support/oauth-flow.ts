import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { Arrivals, closeNow, listenOnLoopback } from './local-listener.js';
import { postRaw, type RawAnswer, toolCallRequest } from './mcp-client.js';

/**
 * The steps of an OAuth 2.1 authorization as an MCP client takes them, one plain HTTP request
 * each, so tests can look at every answer on the way: discovery from a 401, registration, the
 * authorization URL, code exchange, refresh and revocation.
 */

export interface AuthorizationServerMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  registration_endpoint?: string;
  revocation_endpoint?: string;
  jwks_uri?: string;
  code_challenge_methods_supported?: string[];
  grant_types_supported?: string[];
  response_types_supported?: string[];
  response_modes_supported?: string[];
  scopes_supported?: string[];
  token_endpoint_auth_methods_supported?: string[];
  client_id_metadata_document_supported?: boolean;
  authorization_response_iss_parameter_supported?: boolean;
}

interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported?: string[];
  bearer_methods_supported?: string[];
}

export interface Discovery {
  /** The `WWW-Authenticate` of the 401 that started it. */
  challenge: string;
  resourceMetadataUrl: string;
  resource: ProtectedResourceMetadata;
  server: AuthorizationServerMetadata;
}

/** What a client does on its first contact: an unauthenticated call, then the metadata the 401 points at. */
export async function discover(mcpUrl: string): Promise<Discovery> {
  const unauthenticated = await postRaw(mcpUrl, toolCallRequest('get_account_usage'), {
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
  });
  if (unauthenticated.status !== 401) {
    throw new Error(`Expected 401 from ${mcpUrl}, got ${unauthenticated.status}: ${unauthenticated.text}`);
  }
  const challenge = unauthenticated.headers.get('www-authenticate') ?? '';
  const resourceMetadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
  if (resourceMetadataUrl === undefined) throw new Error(`No resource_metadata in "${challenge}"`);
  const resource = await getJson<ProtectedResourceMetadata>(resourceMetadataUrl);
  const [issuer] = resource.authorization_servers;
  if (issuer === undefined) throw new Error('The protected-resource metadata names no authorization server');
  const server = await getJson<AuthorizationServerMetadata>(
    wellKnownUrl(issuer, 'oauth-authorization-server'),
  );
  return { challenge, resourceMetadataUrl, resource, server };
}

/** RFC 8414's well-known location: inserted between the host and the issuer's path. */
function wellKnownUrl(issuer: string, name: string): string {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname;
  return `${url.origin}/.well-known/${name}${path}`;
}

export async function getJson<T>(url: string, headers: Record<string, string> = {}): Promise<T> {
  const response = await fetch(url, { headers: { Accept: 'application/json', ...headers } });
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

export interface RegisteredClient {
  client_id: string;
  redirect_uris: string[];
  token_endpoint_auth_method?: string;
  /** Issued to confidential clients only (`client_secret_post`, `client_secret_basic`). */
  client_secret?: string;
  grant_types?: string[];
  response_types?: string[];
  client_name?: string;
  scope?: string;
  [field: string]: unknown;
}

/** Dynamic client registration (RFC 7591): the answer as it came, to assert on refusals too. */
export function registerClient(
  server: Pick<AuthorizationServerMetadata, 'registration_endpoint'>,
  metadata: Record<string, unknown>,
) {
  if (server.registration_endpoint === undefined) throw new Error('No registration_endpoint advertised');
  return postRaw(server.registration_endpoint, metadata, { headers: { 'Content-Type': 'application/json' } });
}

/** Registers and insists it worked. */
export async function registeredClient(
  server: Pick<AuthorizationServerMetadata, 'registration_endpoint'>,
  metadata: Record<string, unknown>,
): Promise<RegisteredClient> {
  const answer = await registerClient(server, metadata);
  if (answer.status !== 201) throw new Error(`Registration answered ${answer.status}: ${answer.text}`);
  return answer.json as RegisteredClient;
}

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function pkcePair(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  pkce: Pkce;
  scope: string;
  resource: string;
  state?: string;
  /** Extra or overriding query parameters, for the attacks; an undefined one is left out. */
  extra?: Record<string, string | undefined>;
}

export function authorizationUrl(server: AuthorizationServerMetadata, request: AuthorizationRequest): URL {
  const url = new URL(server.authorization_endpoint);
  const params: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    scope: request.scope,
    code_challenge: request.pkce.challenge,
    code_challenge_method: 'S256',
    resource: request.resource,
    state: request.state ?? randomBytes(12).toString('base64url'),
    ...request.extra,
  };
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) url.searchParams.set(name, value);
  }
  return url;
}

export interface TokenSet {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token?: string;
  scope?: string;
}

/**
 * How a confidential client proves itself at the token endpoint: its secret in the form
 * (`client_secret_post`) or in HTTP Basic (`client_secret_basic`). Public clients send none.
 */
export interface ClientSecretAuth {
  method: 'client_secret_post' | 'client_secret_basic';
  secret: string;
}

/** A token-endpoint request of `clientId`, authenticated as `auth` says. */
function postClientForm(
  url: string,
  clientId: string,
  fields: Record<string, string>,
  auth?: ClientSecretAuth,
): Promise<RawAnswer> {
  const form = new URLSearchParams({ client_id: clientId, ...fields });
  const headers: Record<string, string> = {
    'Content-Type': 'application/x-www-form-urlencoded',
    Accept: 'application/json',
  };
  if (auth?.method === 'client_secret_post') form.set('client_secret', auth.secret);
  if (auth?.method === 'client_secret_basic') {
    // RFC 6749 2.3.1: each part form-encoded before the Base64.
    const encode = (part: string) => encodeURIComponent(part).replace(/%20/g, '+');
    form.delete('client_id');
    headers.Authorization = `Basic ${Buffer.from(`${encode(clientId)}:${encode(auth.secret)}`).toString('base64')}`;
  }
  return postRaw(url, form.toString(), { headers });
}

export function exchangeCode(
  server: AuthorizationServerMetadata,
  fields: {
    clientId: string;
    code: string;
    redirectUri: string;
    verifier: string;
    resource: string;
    clientAuth?: ClientSecretAuth;
  },
): Promise<RawAnswer> {
  return postClientForm(
    server.token_endpoint,
    fields.clientId,
    {
      grant_type: 'authorization_code',
      code: fields.code,
      redirect_uri: fields.redirectUri,
      code_verifier: fields.verifier,
      resource: fields.resource,
    },
    fields.clientAuth,
  );
}

export function refreshTokens(
  server: AuthorizationServerMetadata,
  fields: { clientId: string; refreshToken: string; resource: string; clientAuth?: ClientSecretAuth },
): Promise<RawAnswer> {
  return postClientForm(
    server.token_endpoint,
    fields.clientId,
    { grant_type: 'refresh_token', refresh_token: fields.refreshToken, resource: fields.resource },
    fields.clientAuth,
  );
}

/** `refreshTokens` as a public client; a missing refresh token is sent empty, to be refused. */
export function refreshAsPublicClient(
  server: AuthorizationServerMetadata,
  clientId: string,
  refreshToken: string | undefined,
  resource: string,
): Promise<RawAnswer> {
  return refreshTokens(server, { clientId, refreshToken: refreshToken ?? '', resource });
}

export function revokeToken(
  server: AuthorizationServerMetadata,
  fields: { clientId: string; token: string; tokenTypeHint?: string; clientAuth?: ClientSecretAuth },
): Promise<RawAnswer> {
  if (server.revocation_endpoint === undefined) throw new Error('No revocation_endpoint advertised');
  return postClientForm(
    server.revocation_endpoint,
    fields.clientId,
    {
      token: fields.token,
      ...(fields.tokenTypeHint !== undefined && { token_type_hint: fields.tokenTypeHint }),
    },
    fields.clientAuth,
  );
}

/** A token answer that must be a success. */
export function tokenSetOf(answer: RawAnswer): TokenSet {
  if (answer.status !== 200) throw new Error(`Token endpoint answered ${answer.status}: ${answer.text}`);
  return answer.json as TokenSet;
}

/** The payload of a JWT, unverified: what the test wants to look at, not to trust. */
export function jwtClaims(token: string): Record<string, unknown> {
  const [, payload = ''] = token.split('.');
  return JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
}

export interface LoopbackRedirectListener {
  /** The port it listens on, 127.0.0.1. */
  port: number;
  /** Where a native app asks to be sent back to, e.g. `http://127.0.0.1:<port>/callback`. */
  redirectUri: string;
  /** The next request the browser makes to it (code, state and iss in its query). */
  nextRedirect(): Promise<URL>;
  close(): Promise<void>;
}

/**
 * A native app's loopback listener (RFC 8252): a port of its own, answering the browser "done".
 * `host` is the name the redirect URI uses for it (`localhost` for some apps).
 */
export async function listenForLoopbackRedirect(
  options: { path?: string; host?: '127.0.0.1' | 'localhost' } = {},
): Promise<LoopbackRedirectListener> {
  const { path = '/callback', host = '127.0.0.1' } = options;
  const redirects = new Arrivals<URL>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('Signed in; you can close this window.');
    if (url.pathname === path) redirects.add(url);
  });
  const port = await listenOnLoopback(server);
  return {
    port,
    redirectUri: `http://${host}:${port}${path}`,
    nextRedirect: () => redirects.next(),
    close: () => closeNow(server),
  };
}
