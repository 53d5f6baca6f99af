import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { looksLikeJwt } from '../auth/access-token.js';
import { looksLikeApiKey } from '../auth/api-key-format.js';
import { STEP_UP_SCOPES } from '../auth/scopes.js';
import type { CredentialVerifier } from '../auth/verify-credential.js';
import { DomainError, OUTAGE_RETRY_AFTER_SECONDS } from '../errors.js';
import type { AuthenticationFailure, Metrics } from '../metrics.js';
import type { AccountsStore } from '../stores/accounts.js';
import type { AnyToolDefinition } from '../tools/define-tool.js';
import { type AddressLimiter, refuseOverBudget } from './failed-auth-limiter.js';
import { requestState } from './request-state.js';

function protectedResourceMetadataUrl(baseUrl: string): string {
  return `${baseUrl}/.well-known/oauth-protected-resource/mcp`;
}

/**
 * Authenticates `/mcp` at the HTTP edge (docs/protocol.md, "Authentication"): the bearer
 * credential becomes `requestState(res).principal`; tools never see headers. Refusals are RFC 6750
 * challenges.
 */
export function authenticate(deps: {
  verify: CredentialVerifier;
  accounts: AccountsStore;
  /** Failed authentications per client address, shared by every process. */
  failedAuthLimiter: AddressLimiter;
  metrics: Metrics;
  baseUrl: string;
  now: () => Date;
}): RequestHandler {
  const resourceMetadata = `resource_metadata="${protectedResourceMetadataUrl(deps.baseUrl)}"`;

  const refuse = async (
    req: Request,
    res: Response,
    reason: AuthenticationFailure,
    description: string | null,
  ) => {
    const decision = await deps.failedAuthLimiter.spend(req.ip ?? 'unknown', deps.now());
    const status = decision.allowed ? 401 : 429;
    deps.metrics.authenticationFailed(reason, status);
    requestState(res).logger.info('credential refused', { reason, status });
    if (!decision.allowed) {
      refuseOverBudget(res, decision.retryAfterSeconds, 'failed authentications');
      return;
    }
    // With no credential at all, the challenge only says where to sign in (RFC 6750 §3.1).
    const challenge =
      description === null
        ? `Bearer ${resourceMetadata}`
        : `Bearer error="invalid_token", error_description="${asQuotedStringContent(description)}", ${resourceMetadata}`;
    res
      .status(401)
      .set('WWW-Authenticate', challenge)
      .json({
        error: 'invalid_token',
        error_description:
          description ?? 'An Authorization: Bearer <API key or access token> header is required.',
      });
  };

  // The credential is always checked, even from an address over its failure budget: refusing
  // before it would let one client lock out everyone behind the same proxy or NAT.
  return async (req: Request, res: Response, next: NextFunction) => {
    const header = req.get('authorization');
    if (header === undefined) return refuse(req, res, 'missing_credential', null);
    const token = /^Bearer +(\S+) *$/i.exec(header)?.[1];
    if (token === undefined)
      return refuse(
        req,
        res,
        'malformed_header',
        'The Authorization header must be Bearer followed by an API key or access token.',
      );
    try {
      const verification = await deps.verify(token);
      if (!verification.ok) return refuse(req, res, refusedKind(token), verification.description);
      const account = await deps.accounts.findByIdRecent(verification.accountId);
      if (account === null) {
        return refuse(req, res, 'account_missing', 'The account of this credential no longer exists.');
      }
      const state = requestState(res);
      state.principal = { account, credential: verification.credential };
      state.logger = state.logger.child({
        account_id: account._id,
        credential_id: verification.credential.id,
      });
      next();
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'unavailable')) throw error;
      res
        .status(503)
        .set('Retry-After', String(OUTAGE_RETRY_AFTER_SECONDS))
        .json({
          error: 'temporarily_unavailable',
          error_description: `The credential cannot be checked right now. Retry in ${OUTAGE_RETRY_AFTER_SECONDS} seconds.`,
        });
    }
  };
}

/** What kind of credential was refused, by its shape: the verifier says why in words only. */
function refusedKind(token: string): AuthenticationFailure {
  if (looksLikeApiKey(token)) return 'api_key_refused';
  if (looksLikeJwt(token)) return 'access_token_refused';
  return 'unrecognized_token';
}

/**
 * An OAuth token lacking a scope the client can add by asking the user again gets an HTTP 403
 * challenge, which only express can send: tool results cannot set the status (docs/protocol.md,
 * "Scopes"). API keys cannot step up; they get the `insufficient_scope` tool result instead.
 */
export function requireStepUpScopes(deps: {
  toolsByName: ReadonlyMap<string, AnyToolDefinition>;
  baseUrl: string;
}): RequestHandler {
  return (req, res, next) => {
    const principal = requestState(res).principal;
    const scope = toolCalled(req.body, deps.toolsByName)?.scope ?? null;
    if (
      principal === undefined ||
      principal.credential.type !== 'oauth' ||
      scope === null ||
      !STEP_UP_SCOPES.has(scope) ||
      principal.credential.scopes.includes(scope)
    ) {
      return next();
    }
    res
      .status(403)
      .set(
        'WWW-Authenticate',
        `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${protectedResourceMetadataUrl(deps.baseUrl)}"`,
      )
      .json({
        error: 'insufficient_scope',
        error_description: `This tool needs the scope "${scope}". Sign in again and grant it.`,
      });
  };
}

function toolCalled(
  body: unknown,
  toolsByName: ReadonlyMap<string, AnyToolDefinition>,
): AnyToolDefinition | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { method, params } = body as { method?: unknown; params?: { name?: unknown } };
  if (method !== 'tools/call' || typeof params?.name !== 'string') return undefined;
  return toolsByName.get(params.name);
}

/** Header parameters are quoted strings: a stray quote or backslash would end them early. */
function asQuotedStringContent(text: string): string {
  return text.replace(/["\\]/g, "'");
}
