import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { deriveKey } from '../auth/derive-key.js';
import { randomBase62 } from '../auth/random.js';

/**
 * The headers of every page. No script runs on these pages at all; `frame-ancestors 'none'` (and
 * the older X-Frame-Options) stop another site from framing the sign-in or consent form to trick a
 * click. `form-action` is left out on purpose: browsers apply it to the redirects after a form is
 * sent, and approving consent redirects to the client's own address (`cursor://...`, a loopback
 * port), which no list written here could name.
 */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; base-uri 'none'; object-src 'none'; frame-ancestors 'none'";

export function pageHeaderFields(options: { https: boolean }): Record<string, string> {
  return {
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    // The interaction's address is a capability of the sign-in under way: no page leaks it onward.
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    ...(options.https && { 'Strict-Transport-Security': 'max-age=31536000' }),
  };
}

export function pageHeaders(options: { https: boolean }): RequestHandler {
  const fields = pageHeaderFields(options);
  return (_req, res, next) => {
    res.set(fields);
    next();
  };
}

/**
 * The pages' two cookies. Over https they carry the `__Host-` prefix, which makes browsers insist
 * on Secure, path `/` and no Domain, so no other host (a sibling subdomain) can plant one.
 */
export class PageCookies {
  readonly session: string;
  readonly formGuard: string;
  private readonly secure: boolean;

  constructor(options: { https: boolean }) {
    this.secure = options.https;
    const prefix = options.https ? '__Host-' : '';
    this.session = `${prefix}hl_session`;
    this.formGuard = `${prefix}hl_form`;
  }

  read(req: Request, name: string): string | undefined {
    for (const pair of (req.headers.cookie ?? '').split(';')) {
      const separator = pair.indexOf('=');
      if (separator < 0) continue;
      if (pair.slice(0, separator).trim() === name) return pair.slice(separator + 1).trim();
    }
    return undefined;
  }

  /** HttpOnly (no script reads it), SameSite=Lax (not sent on cross-site form posts), Secure over https. */
  set(res: Response, name: string, value: string, expires?: Date): void {
    res.cookie(name, value, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secure,
      path: '/',
      ...(expires && { expires }),
    });
  }

  clear(res: Response, name: string): void {
    res.clearCookie(name, { httpOnly: true, sameSite: 'lax', secure: this.secure, path: '/' });
  }
}

/** The form-guard cookie's value: random, so each browser's tokens are its own. */
const GUARD_PATTERN = /^[0-9A-Za-z]{32}$/;

/**
 * CSRF protection for every form. The browser holds a random value in an HttpOnly cookie; each
 * form carries an HMAC of that value and of the form's context (the interaction, or the signed-in
 * session), under a key derived from SERVER_SECRET for this purpose only. Another site can make a
 * browser send the cookie (not even that, with SameSite=Lax) but cannot read it, so it cannot
 * compute the token; and a token made for one interaction or session is worthless for another.
 */
export class FormGuard {
  private readonly key: Buffer;

  constructor(
    serverSecret: string,
    private readonly cookies: PageCookies,
  ) {
    this.key = deriveKey(serverSecret, 'pages/form-guard-v1');
  }

  /** The token for a form of `context`, setting the browser's guard cookie first if it has none. */
  tokenFor(req: Request, res: Response, context: string): string {
    let guard = this.cookies.read(req, this.cookies.formGuard);
    if (guard === undefined || !GUARD_PATTERN.test(guard)) {
      guard = randomBase62(32);
      this.cookies.set(res, this.cookies.formGuard, guard);
      // Later reads in this request see the value just set.
      req.headers.cookie = `${req.headers.cookie ?? ''}; ${this.cookies.formGuard}=${guard}`;
    }
    return this.sign(guard, context);
  }

  /** Whether the posted `csrf_token` field belongs to this browser and this context. */
  accepts(req: Request, context: string): boolean {
    const guard = this.cookies.read(req, this.cookies.formGuard);
    const posted: unknown = (req.body as Record<string, unknown> | undefined)?.csrf_token;
    if (guard === undefined || !GUARD_PATTERN.test(guard) || typeof posted !== 'string') return false;
    const expected = Buffer.from(this.sign(guard, context));
    const actual = Buffer.from(posted);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }

  private sign(guard: string, context: string): string {
    return createHmac('sha256', this.key).update(`${guard}\n${context}`).digest('base64url');
  }
}
