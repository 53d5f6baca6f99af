import { randomUUID } from 'node:crypto';
import net from 'node:net';
import type { ResolveHost } from '../../src/oauth/metadata-documents.js';
import type { PlanName } from '../../src/plans.js';
import type { Services } from '../../src/services.js';
import type { Account } from '../../src/stores/accounts.js';
import type { User } from '../../src/stores/users.js';
import { tools } from '../../src/tools/registry.js';
import type { Person } from './browser.js';
import { listenOnLoopback } from './local-listener.js';
import { PERSON_PASSWORD } from './person-password.js';
import { startTestServer, type TestServer } from './test-server.js';

/**
 * A test server whose BASE_URL is the address it really listens on (`http://127.0.0.1:<port>`), so
 * the URLs in its metadata lead somewhere for real clients and a real browser: the issuer, the
 * authorization and token endpoints, the resource. (Clients such as mcp-remote also refuse plain
 * http anywhere but loopback.)
 */
export async function startOAuthTestServer(
  options: {
    config?: Record<string, string>;
    /** How client metadata documents are fetched (used with NODE_ENV=development). */
    oauthFetch?: typeof globalThis.fetch;
    /** How a metadata document's host name resolves (outside development). */
    resolveHost?: ResolveHost;
    /** The server's wall clock (see `stoppedClock`). */
    clock?: () => Date;
  } = {},
): Promise<TestServer> {
  const port = await freePort();
  return startTestServer({
    tools,
    port,
    config: {
      BASE_URL: `http://127.0.0.1:${port}`,
      // Every client and browser of a test comes from 127.0.0.1: the per-address limits are not what these test.
      OAUTH_REGISTRATIONS_PER_MINUTE: '1000',
      SIGN_IN_FORMS_PER_MINUTE: '1000',
      CLIENT_METADATA_FETCHES_PER_MINUTE: '1000',
      ...options.config,
    },
    ...(options.oauthFetch && { fetch: options.oauthFetch }),
    ...(options.resolveHost && { resolveHost: options.resolveHost }),
    ...(options.clock && { clock: options.clock }),
  });
}

/** A loopback port free when asked (another process may take it after). */
export async function freePort(): Promise<number> {
  const probe = net.createServer();
  const port = await listenOnLoopback(probe);
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export { PERSON_PASSWORD };

/** A person with a user of a new account, who signs in with `person`. */
export async function createPerson(
  services: Services,
  options: { plan?: PlanName } = {},
): Promise<{ account: Account; user: User; person: Person }> {
  const now = new Date();
  const email = `person-${randomUUID()}@example.test`;
  const account = await services.accounts.create({
    email,
    plan: options.plan ?? 'growth',
    subscription_status: 'active',
    now,
  });
  const user = await services.users.create({ email, password: PERSON_PASSWORD, accountId: account._id, now });
  return { account, user, person: { email, password: PERSON_PASSWORD } };
}
