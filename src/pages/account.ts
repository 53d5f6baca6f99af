import express, { type Request, type Response, type Router } from 'express';
import { isScope, SCOPES, type Scope } from '../auth/scopes.js';
import { readAccountUsage } from '../billing/account-usage.js';
import { endProviderSession } from '../oauth/browser-session.js';
import { type ConnectedApp, listGrants, revokeGrant } from '../oauth/grants.js';
import { QUOTA_KEYS } from '../plans.js';
import type { ApiKeyRecord } from '../stores/api-keys.js';
import {
  type AccountSession,
  currentSession,
  type PagesContext,
  sessionFormContext,
  startSession,
} from './context.js';
import { type Html, html } from './html.js';
import { alertMessage, messagePage, pageDocument, sendPage } from './layout.js';
import { SCOPE_WORDS, SPENDS_CREDITS } from './scope-words.js';
import { clientAddress, formField, signIn } from './sign-in.js';

/** The account's own sign-in form posts with tokens of this context (there is no session yet). */
const SIGN_IN_FORM = 'account-sign-in';
/**
 * The sign-out form's context: bound to the browser (its guard cookie), not to the page session, so
 * a browser whose page session already ended can still end its session with the authorization server.
 */
const SIGN_OUT_FORM = 'sign-out';
/** Keys are cheap to make from this page; a ceiling keeps a runaway script from making thousands. */
const MAX_ACTIVE_KEYS = 25;

/** `/account`: sign-in, plan and usage, API keys, connected apps, sign-out. */
export function accountRoutes(context: PagesContext): Router {
  const router = express.Router();

  router.get('/account', async (req, res) => {
    const session = await currentSession(context, req);
    if (session === null) return renderSignIn(context, req, res, 200);
    await renderAccount(context, req, res, session, 200);
  });

  router.post('/account/sign-in', async (req, res) => {
    if (!context.guard.accepts(req, SIGN_IN_FORM)) return refuseForm(res);
    const email = formField(req, 'email');
    const outcome = await signIn(
      context,
      { email, password: formField(req, 'password'), address: clientAddress(req) },
      context.now(),
    );
    if (!outcome.ok) return renderSignIn(context, req, res, outcome.status, outcome.message, email);
    await startSession(context, res, outcome.user);
    res.redirect(303, '/account');
  });

  // Signing out ends both of this browser's sign-ins: the pages' and the authorization server's.
  router.post('/account/logout', async (req, res) => {
    if (!context.guard.accepts(req, SIGN_OUT_FORM)) return refuseForm(res);
    await signOutBrowser(context, req, res, await currentSession(context, req));
    res.redirect(303, '/account');
  });

  router.post('/account/keys', async (req, res) => {
    const session = await postingSession(context, req, res);
    if (session === null) return;
    const scopes = postedScopes(req);
    if (scopes.length === 0) {
      return renderAccount(context, req, res, session, 400, 'Choose at least one scope for the new key.');
    }
    const { apiKeys } = context.services;
    const active = (await apiKeys.listForAccount(session.user.account_id)).filter(
      (key) => key.revoked_at === null,
    );
    if (active.length >= MAX_ACTIVE_KEYS) {
      return renderAccount(
        context,
        req,
        res,
        session,
        409,
        `This account already has ${MAX_ACTIVE_KEYS} API keys: revoke one before creating another.`,
      );
    }
    const { key, record } = await apiKeys.create(session.user.account_id, scopes, context.now());
    sendPage(
      res,
      201,
      pageDocument({
        title: 'New API key',
        signedIn: signedInHeader(context, req, res, session),
        main: html`<h1>New API key</h1>
<p role="status">Copy this key now: it is shown only this once. Only a hash of it is kept.</p>
<label for="new-key">API key ${record.prefix}…</label>
<input id="new-key" class="key" type="text" readonly value="${key}">
<p>Scopes: ${record.scopes.join(', ')}</p>
<p>Send it as <code>Authorization: Bearer &lt;key&gt;</code> to <code>${context.config.BASE_URL}/mcp</code>.</p>
<p><a href="/account">Back to your account</a></p>`,
      }),
    );
  });

  router.post('/account/keys/:keyId/revoke', async (req, res) => {
    const session = await postingSession(context, req, res);
    if (session === null) return;
    const keyId = String(req.params.keyId);
    const revoked = await context.services.apiKeys.revoke(keyId, context.now(), session.user.account_id);
    if (!revoked) return renderAccount(context, req, res, session, 404, 'No such API key in this account.');
    res.redirect(303, '/account');
  });

  router.post('/account/apps/:grantId/revoke', async (req, res) => {
    const session = await postingSession(context, req, res);
    if (session === null) return;
    const revoked = await revokeGrant(context.services.oauthArtifacts, {
      grantId: String(req.params.grantId),
      userId: session.user._id,
    });
    if (!revoked) return renderAccount(context, req, res, session, 404, 'No such connected app.');
    res.redirect(303, '/account');
  });

  return router;
}

/**
 * Ends this browser's sign-in everywhere: its account-page session (if any) and its session with the
 * authorization server, so no app gets a code from it without the password (docs/account-pages.md).
 */
export async function signOutBrowser(
  context: PagesContext,
  req: Request,
  res: Response,
  session: AccountSession | null,
): Promise<void> {
  if (session !== null) await context.services.pageSessions.end(session.sessionId);
  context.cookies.clear(res, context.cookies.session);
  await endProviderSession(context.provider, req, res, context.https);
}

/** The header of a signed-in page: who is signed in, and the sign-out form. */
function signedInHeader(context: PagesContext, req: Request, res: Response, session: AccountSession) {
  return { email: session.user.email, csrfToken: context.guard.tokenFor(req, res, SIGN_OUT_FORM) };
}

/** The session a form was posted from, after its CSRF token is checked; otherwise answered here. */
async function postingSession(
  context: PagesContext,
  req: Request,
  res: Response,
): Promise<AccountSession | null> {
  const session = await currentSession(context, req);
  if (session === null) {
    renderSignIn(context, req, res, 401, 'Your session has ended: sign in again.');
    return null;
  }
  if (!context.guard.accepts(req, sessionFormContext(session))) {
    refuseForm(res);
    return null;
  }
  return session;
}

export function refuseForm(res: Response): void {
  messagePage(
    res,
    403,
    'Form expired',
    'This form has expired or was sent from another site. Go back, reload the page and try again.',
  );
}

function postedScopes(req: Request): Scope[] {
  const posted: unknown = (req.body as Record<string, unknown> | undefined)?.scope;
  const values = Array.isArray(posted) ? posted : [posted];
  return SCOPES.filter((scope) => values.includes(scope)).filter(isScope);
}

function renderSignIn(
  context: PagesContext,
  req: Request,
  res: Response,
  status: number,
  message?: string,
  email = '',
): void {
  const csrfToken = context.guard.tokenFor(req, res, SIGN_IN_FORM);
  sendPage(
    res,
    status,
    pageDocument({
      title: 'Sign in',
      main: html`<h1>Sign in to your account</h1>
${alertMessage(message)}
<form method="post" action="/account/sign-in">
<input type="hidden" name="csrf_token" value="${csrfToken}">
${credentialFields(email)}
<button type="submit">Sign in</button>
</form>
${context.config.SIGNUP === 'open' && html`<p>No account yet? <a href="/signup">Create one</a>.</p>`}
<p>Signed in only to connect apps, on a computer you share? <a href="/session/end">Sign this browser out</a>.</p>`,
    }),
  );
}

/** The email and password fields of the sign-in and sign-up forms. */
export function credentialFields(
  email: string,
  passwordUse: 'current-password' | 'new-password' = 'current-password',
): Html {
  return html`<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${email}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="${passwordUse}" required maxlength="1024">`;
}

function shortTime(date: Date | null): string {
  return date === null ? 'never' : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function scopeList(scopes: readonly string[]): Html {
  return html`<ul>${scopes.map((scope) => html`<li><code>${scope}</code>${SPENDS_CREDITS.has(scope as Scope) && html` <span class="spends">(spends credits)</span>`}</li>`)}</ul>`;
}

async function renderAccount(
  context: PagesContext,
  req: Request,
  res: Response,
  session: AccountSession,
  status: number,
  message?: string,
): Promise<void> {
  const { services, logger } = context;
  const account = await services.accounts.findById(session.user.account_id);
  if (account === null) {
    messagePage(
      res,
      404,
      'No account',
      'This user belongs to no account any more. Contact the operator of this server.',
    );
    return;
  }
  const now = context.now();
  const [usage, keys, apps] = await Promise.all([
    readAccountUsage({ ...services, logger }, account, { type: 'oauth', scopes: [...SCOPES] }, now),
    services.apiKeys.listForAccount(account._id),
    listGrants(services.oauthArtifacts, session.user._id, now),
  ]);
  const csrfToken = context.guard.tokenFor(req, res, sessionFormContext(session));
  const csrfField = html`<input type="hidden" name="csrf_token" value="${csrfToken}">`;
  const credits = usage.enrichment_credits;
  const activeKeys = keys.filter((key) => key.revoked_at === null);
  sendPage(
    res,
    status,
    pageDocument({
      title: 'Your account',
      signedIn: signedInHeader(context, req, res, session),
      main: html`<h1>Your account</h1>
${alertMessage(message)}
<section aria-labelledby="plan-heading">
<h2 id="plan-heading">Plan and credits</h2>
<dl>
<dt>Plan</dt><dd>${usage.plan}</dd>
<dt>Subscription</dt><dd>${usage.subscription_status}</dd>
<dt>Enrichment credits</dt><dd>${credits.remaining} of ${credits.monthly_allowance} left; renews on ${credits.resets_at.slice(0, 10)}</dd>
<dt>Calls per minute</dt><dd>${usage.calls_per_minute}</dd>
</dl>
${usage.notes.length > 0 && html`<ul>${usage.notes.map((note) => html`<li>${note}</li>`)}</ul>`}
</section>
<section aria-labelledby="quotas-heading">
<h2 id="quotas-heading">Today's quotas</h2>
<table>
<thead><tr><th scope="col">Quota</th><th scope="col">Used</th><th scope="col">Limit</th><th scope="col">Remaining</th><th scope="col">Resets</th></tr></thead>
<tbody>
${QUOTA_KEYS.map((key) => {
  const quota = usage.daily_quotas[key];
  return html`<tr><th scope="row">${key}</th><td>${quota.used}</td><td>${quota.limit ?? 'unlimited'}</td><td>${quota.remaining ?? 'unlimited'}</td><td>${shortTime(new Date(quota.resets_at))}</td></tr>`;
})}
</tbody>
</table>
</section>
<section aria-labelledby="keys-heading">
<h2 id="keys-heading">API keys</h2>
${activeKeys.length === 0 ? html`<p>No API keys.</p>` : keysTable(activeKeys, csrfField)}
<h3 id="new-key-heading">Create an API key</h3>
<form method="post" action="/account/keys" aria-labelledby="new-key-heading">
${csrfField}
<fieldset>
<legend>Scopes of the new key</legend>
${SCOPES.map(
  (scope) => html`<div><input type="checkbox" id="scope-${scope}" name="scope" value="${scope}" checked>
<label for="scope-${scope}"><code>${scope}</code>: ${SCOPE_WORDS[scope]}${SPENDS_CREDITS.has(scope) && html` <span class="spends">(spends credits)</span>`}</label></div>`,
)}
</fieldset>
<button type="submit">Create key</button>
</form>
</section>
<section aria-labelledby="apps-heading">
<h2 id="apps-heading">Connected apps</h2>
${apps.length === 0 ? html`<p>No apps are connected.</p>` : appsTable(apps, csrfField)}
</section>`,
    }),
  );
}

function keysTable(keys: readonly ApiKeyRecord[], csrfField: Html): Html {
  return html`<table>
<thead><tr><th scope="col">Key</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
<tbody>
${keys.map(
  (
    key,
  ) => html`<tr><th scope="row"><code>${key.prefix}…</code></th><td>${scopeList(key.scopes)}</td><td>${shortTime(key.created_at)}</td><td>${shortTime(key.last_used_at)}</td>
<td><form method="post" action="/account/keys/${key._id}/revoke">${csrfField}<button type="submit" aria-label="Revoke key ${key.prefix}…">Revoke</button></form></td></tr>`,
)}
</tbody>
</table>`;
}

function appsTable(apps: readonly ConnectedApp[], csrfField: Html): Html {
  return html`<table>
<thead><tr><th scope="col">App</th><th scope="col">Scopes</th><th scope="col">Connected</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
<tbody>
${apps.map((app) => {
  const name = app.clientName ?? app.clientId;
  return html`<tr><th scope="row">${name}</th><td>${scopeList(app.scopes)}</td><td>${shortTime(app.grantedAt)}</td><td>${shortTime(app.lastUsedAt ?? null)}</td>
<td><form method="post" action="/account/apps/${app.grantId}/revoke">${csrfField}<button type="submit" aria-label="Disconnect ${name}">Disconnect</button></form></td></tr>`;
})}
</tbody>
</table>`;
}
