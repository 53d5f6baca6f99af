/**
 * The part of oidc-provider 9 (which ships no types) that this server uses: its configuration,
 * the models our pages, grants and tests touch, and the interaction helpers the pages call.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export type AnyObject = Record<string, unknown>;

  /** The part of koa's context our middleware in front of the library's routes uses. */
  export interface KoaContext {
    status: number;
    body: unknown;
    type: string;
    method: string;
    path: string;
    ip: string;
    req: IncomingMessage;
    res: ServerResponse;
    set(name: string, value: string): void;
    set(fields: Record<string, string>): void;
    remove(name: string): void;
    accepts(...types: string[]): string | false;
    cookies: { set(name: string, value: string | null, options?: AnyObject): void };
    /**
     * Set once the library's router matched a route; its name (e.g. `discovery`) is `oidc.route`.
     * The session is there on the routes that load one (authorization, end-session).
     */
    oidc?: {
      route?: string;
      session?: { accountId?: string; destroyed?: boolean };
      entities?: Record<string, unknown>;
    };
  }

  /** The koa context the library passes to its hooks; we read only `oidc`, `ip` and a few response setters. */
  export interface KoaContextWithOIDC {
    ip: string;
    type: string;
    body: unknown;
    set(fields: Record<string, string>): void;
    oidc: {
      route: string;
      client?: Client;
      account?: Account;
      session?: {
        accountId?: string;
        state?: { secret?: string };
        grantIdFor(clientId: string): string | undefined;
      };
      urlFor(name: string, options?: AnyObject): string;
      result?: { consent?: { grantId?: string } };
      entities: Record<string, unknown>;
      params?: AnyObject;
      provider: Provider;
    };
  }

  export interface AdapterPayload extends AnyObject {
    grantId?: string;
    userCode?: string;
    uid?: string;
    consumed?: number;
    accountId?: string;
    clientId?: string;
    exp?: number;
    iat?: number;
    jti?: string;
  }

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number | undefined): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export type AdapterFactory = new (modelName: string) => Adapter;

  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Promise<AnyObject> | AnyObject;
  }

  export interface JWK extends AnyObject {
    kid?: string;
    kty: string;
    alg?: string;
    use?: string;
  }

  export interface ResourceServer {
    scope: string;
    audience?: string;
    accessTokenTTL?: number;
    accessTokenFormat?: 'jwt' | 'opaque';
    jwt?: { sign?: { alg: string; kid?: string } };
  }

  export interface ClientMetadata extends AnyObject {
    client_id?: string;
    client_name?: string;
    redirect_uris?: string[];
    application_type?: 'web' | 'native';
    grant_types?: string[];
    response_types?: string[];
    token_endpoint_auth_method?: string;
    /** The scopes the client registered with, space-separated; none means any. */
    scope?: string;
  }

  export interface Client {
    clientId: string;
    clientName?: string;
    redirectUris: string[];
    applicationType: 'web' | 'native';
    clientAuthMethod: string;
    grantTypeAllowed(type: string): boolean;
    metadata(): ClientMetadata;
  }

  export interface BaseModel {
    jti: string;
    iat?: number;
    exp?: number;
    /** Seconds until it expires (its lifetime, for one not saved yet with an expiry). */
    readonly remainingTTL: number;
    save(): Promise<string>;
    destroy(): Promise<void>;
  }

  export interface Grant extends BaseModel {
    accountId?: string;
    clientId?: string;
    resources?: Record<string, string>;
    addResourceScope(resource: string, scope: string): void;
    rejectResourceScope(resource: string, scope: string): void;
    getResourceScopeFiltered(resource: string, scopes: Iterable<string>): string;
    addOIDCScope(scope: string): void;
  }

  export interface GrantConstructor {
    new (properties: { accountId: string; clientId: string; expiresIn?: number }): Grant;
    find(id: string, options?: { ignoreExpiration?: boolean }): Promise<Grant | undefined>;
  }

  export interface AccessToken extends BaseModel {
    grantId?: string;
    accountId?: string;
    scope?: string;
  }

  export interface AccessTokenConstructor {
    new (properties: {
      accountId: string;
      client: Client;
      grantId: string;
      scope: string;
      resourceServer: ResourceServer;
      expiresIn?: number;
      iat?: number;
      exp?: number;
    }): AccessToken;
  }

  export interface ClientConstructor {
    find(id: string): Promise<Client | undefined>;
  }

  export interface Prompt {
    name: string;
    reasons: string[];
    details: AnyObject & {
      missingOIDCScope?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
  }

  export interface Interaction {
    uid: string;
    prompt: Prompt;
    params: AnyObject & { client_id?: string; redirect_uri?: string; scope?: string };
    session?: { accountId?: string; uid?: string };
    grantId?: string;
    returnTo: string;
    lastSubmission?: AnyObject;
    result?: InteractionResult;
    /** Saves the interaction for the rest of its lifetime. */
    persist(): Promise<string>;
    destroy(): Promise<void>;
  }

  export interface InteractionConstructor {
    find(uid: string): Promise<Interaction | undefined>;
  }

  export interface Session {
    /** True when the browser brought no session cookie. */
    readonly new?: boolean;
    accountId?: string;
    destroy(): Promise<void>;
  }

  export interface SessionConstructor {
    /** The session the request's cookie names (a new, empty one when there is none). */
    get(ctx: KoaContext): Promise<Session>;
  }

  export interface InteractionResult {
    login?: { accountId: string; remember?: boolean };
    consent?: { grantId?: string };
    error?: string;
    error_description?: string;
  }

  export interface Configuration extends AnyObject {
    adapter?: AdapterFactory;
    findAccount?: (ctx: KoaContextWithOIDC, sub: string) => Promise<Account | undefined>;
    jwks?: { keys: readonly object[] };
  }

  export class Provider {
    constructor(issuer: string, configuration: Configuration);
    readonly issuer: string;
    proxy: boolean;
    readonly Grant: GrantConstructor;
    readonly AccessToken: AccessTokenConstructor;
    readonly Client: ClientConstructor;
    readonly Interaction: InteractionConstructor;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
    /** Adds a koa middleware in front of the library's routes (it sees each answer before it is sent). */
    use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): this;
    readonly Session: SessionConstructor;
    /** koa's prototype of every request's `ctx.request` (src/oauth/request-origin.ts). */
    readonly request: object;
    /** A koa context for a request outside the library's routes, as its interaction helpers make one. */
    createContext(req: IncomingMessage, res: ServerResponse): KoaContext;
    cookieName(type: 'session' | 'interaction' | 'resume'): string;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResult,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResult,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }

  export namespace errors {
    class OIDCProviderError extends Error {
      constructor(status: number, message: string, options?: { cause?: unknown });
      status: number;
      statusCode: number;
      error: string;
      error_description?: string;
      /** Whether the error and its description are shown; the library sets it for statuses below 500. */
      expose: boolean;
      /** Whether the authorization endpoint may send the error back to the client's redirect URI. */
      allow_redirect: boolean;
    }
    class InvalidTarget extends OIDCProviderError {
      constructor(description?: string);
    }
    class InvalidScope extends OIDCProviderError {
      constructor(description: string, scope?: string);
    }
    class InvalidRedirectUri extends OIDCProviderError {
      constructor(description?: string);
    }
    class InvalidClientMetadata extends OIDCProviderError {
      constructor(description?: string);
    }
    class AccessDenied extends OIDCProviderError {
      constructor(description?: string);
    }
  }

  /** The prompts the library asks for (login, consent) and the checks that decide each. */
  export namespace interactionPolicy {
    class Check {
      static readonly REQUEST_PROMPT: true;
      static readonly NO_NEED_TO_PROMPT: false;
      constructor(
        reason: string,
        description: string,
        check: (ctx: KoaContextWithOIDC) => boolean | Promise<boolean>,
      );
    }
    interface PolicyPrompt {
      name: string;
      checks: Check[];
    }
    function base(): PolicyPrompt[] & { get(name: string): PolicyPrompt | undefined };
  }

  export default Provider;
}
