import { errors } from 'oidc-provider';
import { OUTAGE_RETRY_AFTER_SECONDS, Unavailable } from '../errors.js';

/**
 * A database outage met by the authorization server, as an error of the library's own kind: its
 * error handlers then answer 503 `temporarily_unavailable` (JSON, or the error page to a browser)
 * where they would answer a 500 `server_error` to any other error (docs/authentication.md,
 * "When the database is down"). The person is never sent back to the client with it: the page asks
 * them to try again in a moment.
 */
export class AuthorizationServerUnavailable extends errors.OIDCProviderError {
  constructor(cause: Unavailable) {
    super(503, 'temporarily_unavailable', { cause });
    // The library hides the error of every 5xx behind `server_error` unless told otherwise.
    this.expose = true;
    this.allow_redirect = false;
    this.error_description = `The authorization server cannot reach its database right now. Retry in ${OUTAGE_RETRY_AFTER_SECONDS} seconds.`;
  }
}

/** Runs code of ours that the library calls (its storage adapter, account lookups, hooks), outages translated. */
export async function outagesAsOAuthErrors<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Unavailable) throw new AuthorizationServerUnavailable(error);
    throw error;
  }
}
