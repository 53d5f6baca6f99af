import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from '../fuzz/server-process.js';
import { openDirectServices } from '../support/backend-proxies.js';
import { compiledServerCommand, testBackends, testEnv } from '../support/backends.js';
import { credentialsInLog } from '../support/log-scan.js';
import { callToolRaw, postRaw, toolCallRequest, toolError } from '../support/mcp-client.js';
import {
  authorizationUrl,
  type ClientSecretAuth,
  discover,
  exchangeCode,
  pkcePair,
  refreshTokens,
  registeredClient,
  revokeToken,
  type TokenSet,
  tokenSetOf,
} from '../support/oauth-flow.js';
import { createPerson, PERSON_PASSWORD } from '../support/oauth-server.js';
import { csrfTokenOf, PageClient, signInToAccount } from '../support/page-client.js';
import { scrape } from '../support/prometheus.js';
import { createAccountWithKey } from '../support/test-server.js';

const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json' };
/** A web app's: a confidential client with a secret (a native app's loopback redirect would make it public). */
const REDIRECT_URI = 'https://app.example.test/callback';
const WRONG_PASSWORD = 'not the password but close to it';

interface LogLine {
  level: string;
  msg: string;
  [field: string]: unknown;
}

/**
 * The server from its sources, as `npm run start:stack` runs it, logging at `debug` on stderr with its metrics listener on,
 * taken through a session with every kind of credential: API keys good and bad, a password sign-in
 * through the pages (the OAuth authorization and the account page), a confidential client's
 * secret, access and refresh tokens, a refresh and a revocation, a key created on the account
 * page. Its whole log is then searched for each of them, by value and by shape.
 */
describe('the server’s log', () => {
  let server: ServerProcess;
  let log: string;
  let lines: LogLine[];
  let otherLines: string[];
  /** Every credential of the session, by name, for the search. */
  const credentials: Record<string, string> = {};
  let metricsAnswer: { host: unknown; port: unknown; toolCalls: number };
  let sessionAccountIds: string[];

  beforeAll(async () => {
    server = await startServerProcess(
      { ...testEnv(), LOG_LEVEL: 'debug', METRICS_PORT: '0' },
      compiledServerCommand(),
    );
    const mcpUrl = `${server.baseUrl}/mcp`;
    const direct = await openDirectServices();
    try {
      // An API key and a validation error, then the key mistyped or lengthened, and garbage.
      const keyHolder = await createAccountWithKey(direct.services, {
        plan: 'scale',
        callsPerMinute: 100_000,
      });
      credentials['the API key'] = keyHolder.key;
      credentials['the secret part of the API key'] = keyHolder.key.slice('hl_live_'.length);
      expect((await callToolRaw(mcpUrl, keyHolder.key, 'get_account_usage')).isError).toBeFalsy();
      const invalid = await callToolRaw(mcpUrl, keyHolder.key, 'search_leads', { page_size: 'many' });
      expect(toolError(invalid).code).toBe('invalid_argument');
      const mistyped = `${keyHolder.key.slice(0, -1)}${keyHolder.key.endsWith('x') ? 'y' : 'x'}`;
      for (const token of [mistyped, `${keyHolder.key}-and-more`, 'Bearer-looking-garbage']) {
        const refused = await postRaw(mcpUrl, toolCallRequest('get_account_usage'), {
          token,
          headers: JSON_HEADERS,
        });
        expect(refused.status).toBe(401);
      }
      credentials['a mistyped API key'] = mistyped;

      // A person signs in with a password in the pages and lets a confidential client in.
      const { person, account } = await createPerson(direct.services);
      const found = await discover(mcpUrl);
      const client = await registeredClient(found.server, {
        client_name: 'Log test client',
        redirect_uris: [REDIRECT_URI],
        token_endpoint_auth_method: 'client_secret_basic',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      });
      const clientAuth: ClientSecretAuth = {
        method: 'client_secret_basic',
        secret: client.client_secret ?? '',
      };
      credentials['the client secret'] = clientAuth.secret;
      const pkce = pkcePair();
      const browser = new PageClient(server.baseUrl);
      const signInPage = await browser.follow(
        authorizationUrl(found.server, {
          clientId: client.client_id,
          redirectUri: REDIRECT_URI,
          pkce,
          scope: 'leads:read account:read',
          resource: found.resource.resource,
        }),
      );
      const signedIn = await browser.post(signInPage.url, {
        csrf_token: csrfTokenOf(signInPage),
        email: person.email,
        password: PERSON_PASSWORD,
      });
      expect(signedIn.status).toBe(303);
      const consent = await browser.follow(signedIn.location as URL);
      const approved = await browser.post(consent.url, {
        csrf_token: csrfTokenOf(consent),
        decision: 'approve',
      });
      const home = (await browser.follow(approved.location as URL)).location;
      const code = home?.searchParams.get('code') ?? '';
      expect(code).not.toBe('');
      credentials['the authorization code'] = code;
      const tokens = tokenSetOf(
        await exchangeCode(found.server, {
          clientId: client.client_id,
          code,
          redirectUri: REDIRECT_URI,
          verifier: pkce.verifier,
          resource: found.resource.resource,
          clientAuth,
        }),
      );
      const refreshed = tokenSetOf(
        await refreshTokens(found.server, {
          clientId: client.client_id,
          refreshToken: tokens.refresh_token ?? '',
          resource: found.resource.resource,
          clientAuth,
        }),
      );
      for (const [name, set] of [
        ['the first', tokens],
        ['the refreshed', refreshed],
      ] as Array<[string, TokenSet]>) {
        credentials[`${name} access token`] = set.access_token;
        credentials[`${name} refresh token`] = set.refresh_token ?? '';
        expect((await callToolRaw(mcpUrl, set.access_token, 'get_account_usage')).isError).toBeFalsy();
      }
      expect(credentials['the first refresh token']).not.toBe('');
      const revoked = await revokeToken(found.server, {
        clientId: client.client_id,
        token: refreshed.refresh_token ?? '',
        clientAuth,
      });
      expect(revoked.status).toBe(200);
      // The access token of the revoked grant: refused at once, or once the copies of the grant held
      // for IDENTITY_CACHE_MS are that old. Either way it travels in a header the log must not hold.
      const afterRevocation = await postRaw(mcpUrl, toolCallRequest('get_account_usage'), {
        token: refreshed.access_token,
        headers: JSON_HEADERS,
      });
      expect([200, 401]).toContain(afterRevocation.status);

      // The account page: a wrong password, the right one, and a key made there.
      const accountPage = new PageClient(server.baseUrl);
      expect((await signInToAccount(accountPage, person.email, WRONG_PASSWORD)).status).toBe(401);
      credentials['a wrong password'] = WRONG_PASSWORD;
      expect((await signInToAccount(accountPage, person.email, PERSON_PASSWORD)).status).toBe(303);
      const keysForm = await accountPage.get('/account');
      const created = await accountPage.post('/account/keys', {
        csrf_token: csrfTokenOf(keysForm),
        scope: 'account:read',
      });
      const pageKey = /value="(hl_live_[0-9A-Za-z]{32})"/.exec(created.text)?.[1] ?? '';
      expect(pageKey).not.toBe('');
      credentials['the key made on the account page'] = pageKey;
      expect((await callToolRaw(mcpUrl, pageKey, 'get_account_usage')).isError).toBeFalsy();
      sessionAccountIds = [keyHolder.account._id, account._id];

      // The metrics listener the server started, as its log announced it.
      const announced = server
        .output()
        .split('\n')
        .find((line) => line.includes('"msg":"metrics listening"'));
      const { host, port } = JSON.parse(announced ?? '{}') as { host?: unknown; port?: unknown };
      const metrics = await scrape(`http://127.0.0.1:${port}/metrics`);
      metricsAnswer = { host, port, toolCalls: metrics.value('hiring_leads_tool_calls_total') };
    } finally {
      await direct.close();
      // Stopped before reading: the whole log is out once the process has exited.
      await server.stop();
    }
    log = server.output();
    const written = log.split('\n').filter(Boolean);
    // oidc-provider prints one plain line of its own on a Node version it does not support (20).
    otherLines = written.filter((line) => !line.startsWith('{'));
    lines = written.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as LogLine);
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('holds no key, token, secret or password of the session, nor anything shaped like one', () => {
    expect(Object.keys(credentials)).toHaveLength(11);
    expect(Object.values(credentials).filter((value) => value.length < 16)).toEqual([]);
    const findings = credentialsInLog(log, {
      ...credentials,
      'the server secret': testBackends().serverSecret,
    });
    expect(findings).toEqual([]);
  });

  it('is one JSON object per line on stderr, with one line per tool call carrying who, what, how long and how it ended', () => {
    expect(lines.length).toBeGreaterThan(20);
    expect(
      otherLines.filter((line) => !line.startsWith('oidc-provider WARNING: Unsupported runtime')),
    ).toEqual([]);
    const toolCalls = lines.filter((line) => line.msg === 'tool call');
    // At least five calls got past authentication: three with API keys, two with access tokens.
    expect(toolCalls.length).toBeGreaterThanOrEqual(5);
    for (const line of toolCalls) {
      expect(line).toMatchObject({
        level: 'info',
        request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        account_id: expect.any(String),
        credential_id: expect.any(String),
        tool: expect.any(String),
        duration_ms: expect.any(Number),
        outcome: expect.any(String),
      });
    }
    expect(toolCalls.map((line) => line.outcome)).toContain('invalid_argument');
    expect(new Set(toolCalls.map((line) => line.account_id))).toEqual(new Set(sessionAccountIds));
    // Refused credentials (three bad ones, and discovery's call without one) are logged by route and status.
    const refusals = lines.filter(
      (line) => line.msg === 'request' && line.route === '/mcp' && line.status === 401,
    );
    expect(refusals.length).toBeGreaterThanOrEqual(4);
    expect(refusals.filter((line) => typeof line.request_id !== 'string')).toEqual([]);
    const reasons = lines.filter((line) => line.msg === 'credential refused').map((line) => line.reason);
    expect(reasons).toEqual(
      expect.arrayContaining(['missing_credential', 'api_key_refused', 'unrecognized_token']),
    );
  });

  it('announces the metrics listener on loopback, whose counters the session moved', () => {
    expect(metricsAnswer.host).toBe('127.0.0.1');
    expect(metricsAnswer.port).toEqual(expect.any(Number));
    expect(metricsAnswer.toolCalls).toBeGreaterThanOrEqual(5);
  });
});
