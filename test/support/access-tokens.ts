import { randomUUID } from 'node:crypto';
import type { Scope } from '../../src/auth/scopes.js';
import { mcpResourceServer } from '../../src/oauth/provider.js';
import { OAUTH_ROUTES } from '../../src/oauth/routes.js';
import type { Services } from '../../src/services.js';
import type { User } from '../../src/stores/users.js';
import { registeredClient } from './oauth-flow.js';
import { PERSON_PASSWORD } from './person-password.js';
import type { TestServer } from './test-server.js';

/** A new active user of `accountId`; access tokens are accepted only for users that exist. */
export function createUser(services: Services, accountId: string): Promise<User> {
  return services.users.create({
    email: `person-${randomUUID()}@example.test`,
    password: PERSON_PASSWORD,
    accountId,
    now: new Date(),
  });
}

/** A redirect URI of the clients the helpers register; nothing listens there. */
const TEST_REDIRECT_URI = 'https://client.example.test/callback';

/** Registers a public client through the server's own registration endpoint; returns its `client_id`. */
async function registerTestClient(server: TestServer): Promise<string> {
  const client = await registeredClient(
    { registration_endpoint: `${server.root}${OAUTH_ROUTES.registration}` },
    { client_name: 'Test client', redirect_uris: [TEST_REDIRECT_URI], token_endpoint_auth_method: 'none' },
  );
  return client.client_id;
}

const clientOfServer = new WeakMap<TestServer, Promise<string>>();

/**
 * A real access token of the test server: a grant of `scopes` to a registered client, saved by the
 * provider's own Grant model, and an access token issued under it by its AccessToken model, which
 * signs it with the server's key and adds its claims. No token is signed by the test itself.
 * `issuedAt` and `expiresInSeconds` (5 minutes by default) set its `iat` and `exp`; its `account_id`
 * is the user's account when it is issued.
 */
export async function accessTokenFor(
  server: TestServer,
  claims: {
    userId: string;
    scopes: Scope[];
    expiresInSeconds?: number;
    issuedAt?: Date;
    /** A resource other than the server's own `/mcp`, as if the server issued it for another resource server. */
    audience?: string;
  },
): Promise<string> {
  const { provider } = server.oauth;
  let clientId = clientOfServer.get(server);
  if (clientId === undefined) {
    clientId = registerTestClient(server);
    clientOfServer.set(server, clientId);
  }
  const client = await provider.Client.find(await clientId);
  if (client === undefined) throw new Error('the test client is gone');
  const resourceServer = mcpResourceServer(server.config.BASE_URL);
  if (claims.audience !== undefined) resourceServer.audience = claims.audience;
  const grant = new provider.Grant({ accountId: claims.userId, clientId: client.clientId });
  grant.addResourceScope(resourceServer.audience as string, claims.scopes.join(' '));
  const grantId = await grant.save();
  const iat = Math.floor((claims.issuedAt ?? new Date()).getTime() / 1000);
  const token = new provider.AccessToken({
    accountId: claims.userId,
    client,
    grantId,
    scope: claims.scopes.join(' '),
    resourceServer,
    iat,
    exp: iat + (claims.expiresInSeconds ?? 300),
  });
  return token.save();
}

/** A new user of `accountId` signed in with `scopes`: what an OAuth client holds after sign-in. */
export async function signedInUser(
  server: TestServer,
  accountId: string,
  scopes: Scope[],
): Promise<{ user: User; token: string }> {
  const user = await createUser(server.services, accountId);
  return { user, token: await accessTokenFor(server, { userId: user._id, scopes }) };
}
