import type { Scope } from '../../src/auth/scopes.js';
import { type AuthorizationRequest, authorizationUrl, type Discovery } from './oauth-flow.js';
import type { TestServer } from './test-server.js';

/**
 * The front channel of the authorization code flow for tests of the authorization server itself:
 * the browser's requests are plain HTTP with a cookie jar, and the person's part (sign-in and
 * consent, which the pages do and test themselves) is recorded through the provider's own
 * Interaction and Grant models, exactly as the pages' `interactionFinished` records it.
 */

/** Cookies by name, as a browser keeps them for this one server. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** A browser's GET, redirects not followed, the jar sending and keeping cookies. */
export async function browse(url: string | URL, jar: CookieJar): Promise<Response> {
  const response = await fetch(url, { redirect: 'manual', headers: { Cookie: jar.header() } });
  jar.take(response);
  return response;
}

/**
 * Records that the person signed in as `userId` and, when `approve` is given, approved those
 * scopes (added to the client's existing grant, as the consent page does), then follows the
 * redirect back to the authorization endpoint: returns its answer.
 */
export async function completeInteraction(
  server: TestServer,
  interactionUrl: string,
  jar: CookieJar,
  person: { userId: string; approve?: readonly Scope[] },
): Promise<Response> {
  const { provider } = server.oauth;
  const uid = /\/interaction\/([^/?]+)/.exec(interactionUrl)?.[1];
  if (uid === undefined) throw new Error(`not an interaction: ${interactionUrl}`);
  const interaction = await provider.Interaction.find(uid);
  if (interaction === undefined) throw new Error(`no interaction ${uid}`);
  const result: NonNullable<typeof interaction.result> = { login: { accountId: person.userId } };
  if (person.approve !== undefined) {
    const existing =
      interaction.grantId === undefined ? undefined : await provider.Grant.find(interaction.grantId);
    const grant =
      existing ??
      new provider.Grant({ accountId: person.userId, clientId: String(interaction.params.client_id) });
    // Our scopes are both the resource's and (being listed in `scopes`) OpenID ones: the grant records both, as the consent page does.
    grant.addOIDCScope(person.approve.join(' '));
    grant.addResourceScope(`${server.config.BASE_URL}/mcp`, person.approve.join(' '));
    result.consent = { grantId: await grant.save() };
  }
  interaction.result = result;
  await interaction.persist();
  return browse(interaction.returnTo, jar);
}

/** The interaction an authorization request leads to, or undefined when it went straight back to the client. */
export function interactionLocation(response: Response, server: TestServer): string | undefined {
  const location = response.headers.get('location');
  if (location === null) return undefined;
  const url = new URL(location, server.root);
  return url.pathname.startsWith('/interaction/') ? url.href : undefined;
}

/** The parameters of the authorization response (the redirect to the client), or an error if it is none. */
export function authorizationResponse(response: Response, redirectUri: string): URLSearchParams {
  const location = response.headers.get('location') ?? '';
  if (response.status < 300 || response.status > 399 || !location.startsWith(redirectUri)) {
    throw new Error(`expected a redirect to ${redirectUri}, got ${response.status} to "${location}"`);
  }
  return new URL(location).searchParams;
}

/**
 * Authorize, sign in and approve `request.scope` as `userId`: the authorization response's
 * parameters (`code`, `state`, `iss`).
 */
export async function authorizeAs(
  server: TestServer,
  found: Discovery,
  request: AuthorizationRequest,
  userId: string,
  jar = new CookieJar(),
): Promise<URLSearchParams> {
  const started = await browse(authorizationUrl(found.server, request), jar);
  const interaction = interactionLocation(started, server);
  const finished =
    interaction === undefined
      ? started
      : await completeInteraction(server, interaction, jar, {
          userId,
          approve: request.scope.split(' ') as Scope[],
        });
  return authorizationResponse(finished, request.redirectUri);
}
