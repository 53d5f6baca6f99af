/**
 * Domain errors: thrown anywhere below the tool layer, turned into the `isError` tool result of
 * docs/results-and-errors.md ("Error codes") in exactly one place (`src/mcp/tool-result.ts`).
 */
export type ErrorCode =
  | 'invalid_argument'
  | 'not_found'
  | 'insufficient_scope'
  | 'insufficient_credits'
  | 'quota_exceeded'
  | 'rate_limited'
  | 'subscription_required'
  | 'unavailable'
  | 'internal';

export type ErrorDetails = Record<string, unknown>;

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export class InvalidArgument extends DomainError {
  constructor(field: string, message: string, details: ErrorDetails = {}) {
    super('invalid_argument', message, { field, ...details });
  }
}

export class NotFound extends DomainError {
  constructor(field: string, id: string, what: string) {
    super('not_found', `No ${what} has the id "${id}". Use an id exactly as a search returned it.`, {
      field,
      id,
    });
  }
}

export class InsufficientScope extends DomainError {
  constructor(requiredScope: string) {
    super(
      'insufficient_scope',
      `This credential lacks the scope "${requiredScope}". Create an API key with that scope, or sign in again granting it.`,
      { required_scope: requiredScope },
    );
  }
}

export class InsufficientCredits extends DomainError {
  constructor(resetsAt: string) {
    super(
      'insufficient_credits',
      `No enrichment credits are left this month. Credits renew on ${resetsAt}; leads already unlocked stay free.`,
      { credits: 0, resets_at: resetsAt },
    );
  }
}

export class QuotaExceeded extends DomainError {
  constructor(quota: string, resetsAt: string) {
    super('quota_exceeded', `The daily ${quota} quota is used up. It resets at ${resetsAt}.`, {
      quota,
      resets_at: resetsAt,
    });
  }
}

export class RateLimited extends DomainError {
  constructor(retryAfterSeconds: number, limit: number) {
    super(
      'rate_limited',
      `Too many calls: this account may make ${limit} calls per minute. Retry in ${retryAfterSeconds} seconds.`,
      { retry_after_seconds: retryAfterSeconds, calls_per_minute: limit },
    );
  }
}

export class SubscriptionRequired extends DomainError {
  /** `needed`: what access takes, in words (`ACCESS_NEEDED` of src/plans.ts). */
  constructor(reason: string, needed: string) {
    super(
      'subscription_required',
      `${reason} MCP access needs ${needed}. Call get_account_usage to see the account's state.`,
    );
  }
}

/** Seconds an HTTP answer to a backend outage asks the client to wait (`Retry-After`) before retrying. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

/**
 * A backend (Elasticsearch or MongoDB) could not be reached in time. Retryable; nothing was charged.
 * Without a backend named, the call ran out of time waiting for its backends (BACKEND_TIMEOUT_MS).
 */
export class Unavailable extends DomainError {
  constructor(backend?: 'search' | 'database') {
    super(
      'unavailable',
      backend === undefined
        ? 'The backends did not answer in time. Nothing was charged; retry in a few seconds.'
        : `The ${backend} backend is not answering right now. Nothing was charged; retry in a few seconds.`,
      { retryable: true },
    );
  }
}

/** An `Unavailable`, or an error raised because of one (the authorization server wraps it in its own). */
export function causedByOutage(error: unknown): boolean {
  return error instanceof Unavailable || (error instanceof Error && error.cause instanceof Unavailable);
}
