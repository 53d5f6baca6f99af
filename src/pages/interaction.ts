import express, { type Request, type Response, type Router } from 'express';
import type { Client, Interaction } from 'oidc-provider';
import { SCOPES, type Scope } from '../auth/scopes.js';
import { causedByOutage } from '../errors.js';
import { OAUTH_ROUTES } from '../oauth/routes.js';
import { UNUSED_CLIENT_TTL_MS } from '../stores/oauth-artifacts.js';
import { credentialFields, refuseForm, signOutBrowser } from './account.js';
import { currentSession, type PagesContext } from './context.js';
import { html } from './html.js';
import { alertMessage, messagePage, pageDocument, sendPage } from './layout.js';
import { SCOPE_WORDS, SPENDS_CREDITS } from './scope-words.js';
import { clientAddress, formField, signIn } from './sign-in.js';

const UID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * `/interaction/:uid`: the sign-in and consent steps of an OAuth authorization. The library keeps
 * the interaction (found through its own signed cookie); these pages show what it asks and report
 * the answer with `interactionFinished`, which redirects the browser back into the protocol.
 */
export function interactionRoutes(context: PagesContext): Router {
  const router = express.Router();

  router.get('/interaction/:uid', async (req, res) => {
    const interaction = await interactionOf(context, req, res);
    if (interaction === null) return;
    if (interaction.prompt.name === 'login') return renderLogin(context, req, res, interaction, 200);
    // Consent already given for every scope asked never reaches this page: the provider finds the
    // person's earlier grant to this client (src/oauth/provider.ts, loadExistingGrant).
    if (interaction.prompt.name === 'consent') return renderConsent(context, req, res, interaction);
    unknownPrompt(res);
  });

  router.post('/interaction/:uid', async (req, res) => {
    const interaction = await interactionOf(context, req, res);
    if (interaction === null) return;
    if (!context.guard.accepts(req, formContext(interaction))) return refuseForm(res);
    if (interaction.prompt.name === 'login') return finishLogin(context, req, res, interaction);
    if (interaction.prompt.name === 'consent') return finishConsent(context, req, res, interaction);
    unknownPrompt(res);
  });

  // "Not you?": this browser signs out everywhere, and the same authorization starts again, so
  // another person can sign in to it.
  router.post('/interaction/:uid/sign-out', async (req, res) => {
    const interaction = await interactionOf(context, req, res);
    if (interaction === null) return;
    if (!context.guard.accepts(req, formContext(interaction))) return refuseForm(res);
    await signOutBrowser(context, req, res, await currentSession(context, req));
    await interaction.destroy();
    res.redirect(303, authorizationRequestOf(interaction));
  });

  return router;
}

/** The authorization request that led to `interaction`, as the client sent it. */
function authorizationRequestOf(interaction: Interaction): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(interaction.params)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item === 'string') query.append(name, item);
    }
  }
  return `${OAUTH_ROUTES.authorization}?${query}`;
}

function formContext(interaction: Interaction): string {
  return `interaction:${interaction.uid}`;
}

/**
 * The interaction this browser is in, which must be the one the address names; otherwise the
 * page explains and the handler stops. The library finds it by its cookie, so a link copied into
 * another browser leads nowhere.
 */
async function interactionOf(
  context: PagesContext,
  req: Request,
  res: Response,
): Promise<Interaction | null> {
  const uid = String(req.params.uid);
  let interaction: Interaction | undefined;
  try {
    interaction = UID.test(uid) ? await context.provider.interactionDetails(req, res) : undefined;
  } catch (error) {
    if (causedByOutage(error)) throw error;
    interaction = undefined;
  }
  if (interaction === undefined || interaction.uid !== uid) {
    messagePage(
      res,
      400,
      'Sign-in expired',
      'This sign-in has expired, or was opened in another browser. Go back to your app and connect again.',
    );
    return null;
  }
  return interaction;
}

function unknownPrompt(res: Response): void {
  messagePage(
    res,
    400,
    'Cannot continue',
    'This sign-in asks for a step this server does not offer. Connect again from your app.',
  );
}

async function clientOf(
  context: PagesContext,
  interaction: Interaction,
): Promise<{ name: string; redirectTarget: string }> {
  const clientId = String(interaction.params.client_id ?? '');
  const client: Client | undefined = await context.provider.Client.find(clientId);
  return {
    name: client?.clientName || clientId,
    redirectTarget: redirectTarget(String(interaction.params.redirect_uri ?? '')),
  };
}

/** Where approving sends the browser, as a person can judge it: the host, or the app's own scheme. */
function redirectTarget(redirectUri: string): string {
  if (!URL.canParse(redirectUri)) return redirectUri;
  const url = new URL(redirectUri);
  if (url.protocol === 'https:') return url.host;
  if (url.protocol === 'http:') {
    const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
    return loopback ? `${url.host} (an app on this computer)` : url.host;
  }
  return `${url.protocol}//${url.host} (an app on this computer)`;
}

async function renderLogin(
  context: PagesContext,
  req: Request,
  res: Response,
  interaction: Interaction,
  status: number,
  message?: string,
  email = '',
): Promise<void> {
  const client = await clientOf(context, interaction);
  const session = await currentSession(context, req);
  const csrfToken = context.guard.tokenFor(req, res, formContext(interaction));
  const action = `/interaction/${interaction.uid}`;
  sendPage(
    res,
    status,
    pageDocument({
      title: 'Sign in',
      main: html`<h1>Sign in to connect ${client.name}</h1>
${alertMessage(message)}
${
  session !== null &&
  html`<form method="post" action="${action}">
<input type="hidden" name="csrf_token" value="${csrfToken}">
<input type="hidden" name="continue_as" value="session">
<button type="submit">Continue as ${session.user.email}</button>
</form>
<h2>Or sign in as someone else</h2>`
}
<form method="post" action="${action}">
<input type="hidden" name="csrf_token" value="${csrfToken}">
${credentialFields(email)}
<button type="submit">Sign in</button>
</form>
${
  context.config.SIGNUP === 'open' &&
  html`<p>No account yet? <a href="/signup?return_to=${encodeURIComponent(action)}">Create one</a>, then come back here.</p>`
}`,
    }),
  );
}

async function finishLogin(
  context: PagesContext,
  req: Request,
  res: Response,
  interaction: Interaction,
): Promise<void> {
  if (formField(req, 'continue_as') === 'session') {
    const session = await currentSession(context, req);
    if (session === null)
      return renderLogin(context, req, res, interaction, 401, 'Your session has ended: sign in.');
    return loginAs(context, req, res, session.user._id);
  }
  const email = formField(req, 'email');
  const outcome = await signIn(
    context,
    { email, password: formField(req, 'password'), address: clientAddress(req) },
    context.now(),
  );
  if (!outcome.ok) return renderLogin(context, req, res, interaction, outcome.status, outcome.message, email);
  return loginAs(context, req, res, outcome.user._id);
}

function loginAs(context: PagesContext, req: Request, res: Response, userId: string): Promise<void> {
  return context.provider.interactionFinished(
    req,
    res,
    { login: { accountId: userId } },
    { mergeWithLastSubmission: false },
  );
}

function resourceOf(context: PagesContext): string {
  return `${context.config.BASE_URL}/mcp`;
}

/** The scopes this authorization asks of our resource that the user has not granted this client yet. */
function missingScopes(context: PagesContext, interaction: Interaction): Scope[] {
  const missing = interaction.prompt.details.missingResourceScopes?.[resourceOf(context)] ?? [];
  return SCOPES.filter((scope) => missing.includes(scope));
}

async function renderConsent(
  context: PagesContext,
  req: Request,
  res: Response,
  interaction: Interaction,
): Promise<void> {
  const client = await clientOf(context, interaction);
  const missing = missingScopes(context, interaction);
  const asked = String(interaction.params.scope ?? '').split(' ');
  // The library asks an app on the person's own device (loopback or app-scheme redirect) to be
  // approved every time, since another local app could pose as it; then nothing is new, and the
  // page lists what the app already holds.
  const scopes = SCOPES.filter((scope) => missing.includes(scope) || asked.includes(scope));
  const csrfToken = context.guard.tokenFor(req, res, formContext(interaction));
  const accountId = interaction.session?.accountId;
  const person = accountId === undefined ? null : await context.services.users.findById(accountId);
  sendPage(
    res,
    200,
    pageDocument({
      title: 'Allow access',
      main: html`<h1>Allow ${client.name} to use your hiring-leads account?</h1>
<dl>
<dt>Signed in as</dt><dd>${person?.email ?? 'unknown'}</dd>
<dt>App</dt><dd>${client.name}</dd>
<dt>Returns to</dt><dd>${client.redirectTarget}</dd>
</dl>
<form method="post" action="/interaction/${interaction.uid}/sign-out">
<input type="hidden" name="csrf_token" value="${csrfToken}">
<button type="submit">Not you? Sign out</button>
</form>
<h2 id="scopes-heading">It asks to</h2>
<ul aria-labelledby="scopes-heading">
${scopes.map(
  (scope) =>
    html`<li>${SCOPE_WORDS[scope]} (<code>${scope}</code>)${!missing.includes(scope) && ' (already allowed)'}${
      SPENDS_CREDITS.has(scope) &&
      html` <strong class="spends">Spends credits: each lead revealed uses one enrichment credit of your plan.</strong>`
    }</li>`,
)}
</ul>
<p>You can disconnect it at any time on <a href="/account">your account page</a>.</p>
<form method="post" action="/interaction/${interaction.uid}">
<input type="hidden" name="csrf_token" value="${csrfToken}">
<div class="actions">
<button type="submit" name="decision" value="approve">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</div>
</form>`,
    }),
  );
}

async function finishConsent(
  context: PagesContext,
  req: Request,
  res: Response,
  interaction: Interaction,
): Promise<void> {
  const decision = formField(req, 'decision');
  if (decision === 'deny') {
    return context.provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'The user denied access to this app.' },
      { mergeWithLastSubmission: false },
    );
  }
  if (decision !== 'approve') return renderConsent(context, req, res, interaction);
  const { provider } = context;
  const accountId = interaction.session?.accountId;
  const clientId = interaction.params.client_id;
  if (accountId === undefined || typeof clientId !== 'string') return unknownPrompt(res);
  const existing =
    interaction.grantId === undefined ? undefined : await provider.Grant.find(interaction.grantId);
  const grant = existing ?? new provider.Grant({ accountId, clientId });
  const missingOidc = interaction.prompt.details.missingOIDCScope;
  if (missingOidc !== undefined && missingOidc.length > 0) grant.addOIDCScope(missingOidc.join(' '));
  const scopes = missingScopes(context, interaction);
  if (scopes.length > 0) grant.addResourceScope(resourceOf(context), scopes.join(' '));
  const grantId = await grant.save();
  // An approved client is kept as long as its grant lasts, and a week more (docs/authentication.md).
  const grantEndsMs = context.now().getTime() + grant.remainingTTL * 1000;
  await context.services.oauthArtifacts.keepClientUntil(
    clientId,
    new Date(grantEndsMs + UNUSED_CLIENT_TTL_MS),
  );
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}
