import type { Request, Response } from 'express';
import type { Provider } from 'oidc-provider';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Services } from '../services.js';
import type { User } from '../stores/users.js';
import { FormGuard, PageCookies } from './security.js';

/** What every page handler shares, built once by `createPages`. */
export interface PagesContext {
  services: Services;
  config: Config;
  provider: Provider;
  logger: Logger;
  cookies: PageCookies;
  guard: FormGuard;
  /** Whether BASE_URL is https: cookies are then Secure. */
  https: boolean;
  now: () => Date;
}

export function createPagesContext(deps: {
  services: Services;
  config: Config;
  provider: Provider;
  logger: Logger;
  now?: () => Date;
}): PagesContext {
  const https = new URL(deps.config.BASE_URL).protocol === 'https:';
  const cookies = new PageCookies({ https });
  return {
    ...deps,
    cookies,
    https,
    guard: new FormGuard(deps.config.SERVER_SECRET, cookies),
    now: deps.now ?? (() => new Date()),
  };
}

/** The browser's signed-in session on the account pages. */
export interface AccountSession {
  sessionId: string;
  user: User;
}

/** The form context of a signed-in session: its tokens are good for this session only. */
export function sessionFormContext(session: AccountSession): string {
  return `session:${session.sessionId}`;
}

/** The live session of this browser, if any: its cookie, an unexpired record, an active user. */
export async function currentSession(context: PagesContext, req: Request): Promise<AccountSession | null> {
  const sessionId = context.cookies.read(req, context.cookies.session);
  if (sessionId === undefined || !/^[0-9A-Za-z]{32}$/.test(sessionId)) return null;
  const userId = await context.services.pageSessions.userOf(sessionId, context.now());
  if (userId === null) return null;
  const user = await context.services.users.findById(userId);
  if (user === null || user.status !== 'active') return null;
  return { sessionId, user };
}

/** Signs this browser in to the account pages as `user`: a new session id, never one the browser brought. */
export async function startSession(context: PagesContext, res: Response, user: User): Promise<void> {
  const { sessionId, expiresAt } = await context.services.pageSessions.start(user._id, context.now());
  context.cookies.set(res, context.cookies.session, sessionId, expiresAt);
}
