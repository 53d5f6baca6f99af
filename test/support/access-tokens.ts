import { randomUUID } from 'node:crypto';
import { mintAccessToken } from '../../src/auth/access-token.js';
import type { Scope } from '../../src/auth/scopes.js';
import type { Services } from '../../src/mcp/services.js';
import type { User } from '../../src/stores/users.js';
import type { TestServer } from './test-server.js';

/** A new active user of `accountId`; access tokens are accepted only for users that exist. */
export function createUser(services: Services, accountId: string): Promise<User> {
  return services.users.create({
    email: `person-${randomUUID()}@example.test`,
    password: 'correct horse battery staple',
    accountId,
    now: new Date(),
  });
}

/** A token the test server accepts as far as its signature goes: its secret, its base URL, 5 minutes by default. */
export function accessTokenFor(
  server: TestServer,
  claims: {
    userId: string;
    accountId: string;
    scopes: Scope[];
    expiresInSeconds?: number;
    audience?: string;
    issuedAt?: Date;
  },
): Promise<string> {
  return mintAccessToken(
    { secret: server.config.SERVER_SECRET, baseUrl: server.config.BASE_URL },
    { expiresInSeconds: 300, ...claims },
  );
}

/** A new user of `accountId` signed in with `scopes`: what an OAuth client holds after sign-in. */
export async function signedInUser(
  server: TestServer,
  accountId: string,
  scopes: Scope[],
): Promise<{ user: User; token: string }> {
  const user = await createUser(server.services, accountId);
  return { user, token: await accessTokenFor(server, { userId: user._id, accountId, scopes }) };
}
