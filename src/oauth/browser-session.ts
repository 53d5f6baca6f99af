import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import type Provider from 'oidc-provider';
import type { KoaContext } from 'oidc-provider';
import type { PageCookies } from '../pages/security.js';
import type { PageSessionsStore } from '../stores/page-sessions.js';

/**
 * A browser holds two sign-ins: the account pages' session (src/pages/, `hl_session`) and the
 * authorization server's own (oidc-provider's `_session` cookie, which lets an app get a code
 * without the password). Signing out of either ends both (docs/account-pages.md, "Signing out"):
 * the account pages' sign-out and the consent page's "Not you?" end the library's session here,
 * and the library's end-session endpoint ends the pages' session of the same person.
 */

/** The options of the library's cookies, long (its session) and short (an interaction): Secure over https. */
export function providerCookieOptions(https: boolean) {
  return { signed: true, httpOnly: true, sameSite: 'lax', secure: https } as const;
}

/** Ends this browser's session with the authorization server, if it has one, and clears its cookie. */
export async function endProviderSession(
  provider: Provider,
  req: IncomingMessage,
  res: ServerResponse,
  https: boolean,
): Promise<void> {
  // A context of the library's own for this request, as its interaction helpers make one.
  const ctx = provider.createContext(req, res);
  const session = await provider.Session.get(ctx);
  if (!session.new) await session.destroy();
  ctx.cookies.set(provider.cookieName('session'), null, providerCookieOptions(https));
}

/**
 * After the library's end-session confirmation signed a person out (`logout=yes`, or its own
 * account switch during an authorization), the pages' session of the same person in this browser
 * ends too. Another person's page session in the same browser is left alone.
 */
export function endPageSessionWithProviderSession(deps: {
  pageSessions: PageSessionsStore;
  pageCookies: PageCookies;
  now: () => Date;
}) {
  return async (ctx: KoaContext, next: () => Promise<void>): Promise<void> => {
    await next();
    const session = ctx.oidc?.session;
    if (ctx.oidc?.route !== 'end_session_confirm' || session?.destroyed !== true) return;
    // The library is mounted in express: its request and response are express's.
    const req = ctx.req as Request;
    const res = ctx.res as Response;
    const { pageCookies, pageSessions } = deps;
    const pageSessionId = pageCookies.read(req, pageCookies.session);
    if (pageSessionId === undefined) return;
    if ((await pageSessions.userOf(pageSessionId, deps.now())) !== session.accountId) return;
    await pageSessions.end(pageSessionId);
    pageCookies.clear(res, pageCookies.session);
  };
}
