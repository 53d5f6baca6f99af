import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import { looksLikeJwt } from '../auth/access-token.js';
import { looksLikeApiKey } from '../auth/api-key-format.js';
import { DomainError, OUTAGE_RETRY_AFTER_SECONDS } from '../errors.js';
import { StepUpRequired } from '../mcp/run-tool.js';
import type { AuthenticationFailure, Metrics } from '../metrics.js';
import type { AccountsStore } from '../stores/accounts.js';
import type { AddressLimiter } from '../stores/address-limiter.js';
import { refuseOverBudget } from './address-limits.js';
import { requestState } from './request-state.js';
import type { CredentialVerifier } from './verify-credential.js';

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
 * The step-up challenge: an HTTP 403 asking the client to have the user grant the scope the call
 * lacked (the call pipeline's scope check throws `StepUpRequired`; docs/protocol.md, "Scopes").
 */
export function challengeStepUps(baseUrl: string): ErrorRequestHandler {
  return (error, _req, res, next) => {
    if (!(error instanceof StepUpRequired)) return next(error);
    res
      .status(403)
      .set(
        'WWW-Authenticate',
        `Bearer error="insufficient_scope", scope="${error.scope}", resource_metadata="${protectedResourceMetadataUrl(baseUrl)}"`,
      )
      .json({
        error: 'insufficient_scope',
        error_description: `This tool needs the scope "${error.scope}". Sign in again and grant it.`,
      });
  };
}

/** Header parameters are quoted strings: a stray quote or backslash would end them early. */
function asQuotedStringContent(text: string): string {
  return text.replace(/["\\]/g, "'");
}
