import express, { type ErrorRequestHandler, type RequestHandler, type Router } from 'express';
import type { Provider } from 'oidc-provider';
import type { Config } from '../config.js';
import { causedByOutage, OUTAGE_RETRY_AFTER_SECONDS } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Services } from '../services.js';
import { AddressLimiter } from '../stores/address-limiter.js';
import { accountRoutes } from './account.js';
import { createPagesContext } from './context.js';
import { interactionRoutes } from './interaction.js';
import { messagePage, STYLESHEET_PATH } from './layout.js';
import { pageHeaders } from './security.js';
import { signupRoutes } from './signup.js';
import { PAGES_CSS } from './style.js';

/** The forms post a few short fields; anything bigger is not one of ours. */
const MAX_FORM_BYTES = 16 * 1024;
const PAGE_PATHS = ['/interaction', '/signup', '/account', '/assets'];
/** The forms anyone may post without being signed in: each post spends from its address's budget. */
const SIGN_IN_FORM_PATHS = ['/signup', '/account/sign-in', '/interaction/:uid'];

/**
 * The server-rendered pages people see: OAuth sign-in and consent (`/interaction/:uid`), sign-up,
 * and the account's own pages. HTML only, no script, every form CSRF-protected (src/pages/security.ts).
 */
export function createPages(deps: {
  services: Services;
  config: Config;
  provider: Provider;
  logger: Logger;
  now?: () => Date;
}): Router {
  const context = createPagesContext(deps);
  const router = express.Router();
  router.use(PAGE_PATHS, pageHeaders({ https: context.https }));
  router.get(STYLESHEET_PATH, (_req, res) => {
    res.set('Cache-Control', 'public, max-age=3600').type('css').send(PAGES_CSS);
  });
  const signInForms = new AddressLimiter(deps.services.addressBudgets, {
    name: 'sign_in_forms',
    perMinute: deps.config.SIGN_IN_FORMS_PER_MINUTE,
  });
  router.post(SIGN_IN_FORM_PATHS, limitSignInForms(signInForms, context.now));
  router.use(PAGE_PATHS, express.urlencoded({ extended: false, limit: MAX_FORM_BYTES, parameterLimit: 50 }));
  router.use(interactionRoutes(context));
  router.use(signupRoutes(context));
  router.use(accountRoutes(context));
  router.use(pageErrors(deps.logger));
  return router;
}

/**
 * Sign-in and sign-up cost a password hash each, and their forms are free to fetch: posts are
 * counted per client address (`req.ip`, as TRUST_PROXY says) before their body is even read, and
 * beyond SIGN_IN_FORMS_PER_MINUTE refused with 429 (docs/security.md).
 */
function limitSignInForms(limiter: AddressLimiter, clock: () => Date): RequestHandler {
  return async (req, res, next) => {
    const decision = await limiter.spend(req.ip ?? 'unknown', clock());
    if (decision.allowed) return next();
    res.set('Retry-After', String(decision.retryAfterSeconds));
    messagePage(
      res,
      429,
      'Too many attempts',
      `Too many sign-in attempts from your network. Try again in ${decision.retryAfterSeconds} seconds.`,
    );
  };
}

function pageErrors(logger: Logger): ErrorRequestHandler {
  return (error, _req, res, next) => {
    if (res.headersSent) return next(error);
    if (causedByOutage(error)) {
      res.set('Retry-After', String(OUTAGE_RETRY_AFTER_SECONDS));
      return messagePage(
        res,
        503,
        'Temporarily unavailable',
        'The service cannot reach its database right now. Try again in a minute.',
      );
    }
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return messagePage(
        res,
        status,
        'Bad request',
        'This request could not be read. Go back and try again.',
      );
    }
    logger.error('page failed unexpectedly', {
      error,
      stack: error instanceof Error ? error.stack : undefined,
    });
    messagePage(res, 500, 'Something went wrong', 'Something went wrong on our side. Try again in a minute.');
  };
}
