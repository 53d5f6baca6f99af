import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Page } from 'playwright-core';
import { completeAuthorization, type Person } from './browser.js';
import type { LoopbackRedirectListener } from './oauth-flow.js';

/**
 * The SDK's `OAuthClientProvider` as a native MCP client implements it: it keeps its registration,
 * PKCE verifier and tokens in memory, and "opens the browser" by driving Chromium through our
 * sign-in and consent pages; the browser then lands on the test's loopback listener, whose code
 * `authorizationCode()` hands back for `auth(..., { authorizationCode })` or `finishAuth`.
 */
export class BrowserOAuthClientProvider implements OAuthClientProvider {
  private registration: OAuthClientInformationMixed | undefined;
  private savedTokens: OAuthTokens | undefined;
  private verifier: string | undefined;
  private pendingRedirect: Promise<URL> | undefined;
  /** Every authorization URL the SDK sent the browser to, newest last. */
  readonly authorizationUrls: URL[] = [];

  constructor(
    private readonly options: {
      page: Page;
      person: Person;
      listener: LoopbackRedirectListener;
      clientName?: string;
      /** An https URL serving this client's metadata document, instead of dynamic registration. */
      clientMetadataUrl?: string;
    },
  ) {}

  get redirectUrl(): string {
    return this.options.listener.redirectUri;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.options.clientName ?? 'hiring-leads SDK client test',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.registration;
  }

  saveClientInformation(information: OAuthClientInformationMixed): void {
    this.registration = information;
  }

  tokens(): OAuthTokens | undefined {
    return this.savedTokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.savedTokens = tokens;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error('No PKCE verifier saved before the redirect');
    return this.verifier;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'client') this.registration = undefined;
    if (scope === 'all' || scope === 'tokens') this.savedTokens = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    this.authorizationUrls.push(authorizationUrl);
    this.pendingRedirect = this.options.listener.nextRedirect();
    const { page } = this.options;
    await page.goto(authorizationUrl.href);
    await completeAuthorization(page, this.options.person, this.pendingRedirect);
  }

  /** The code the browser brought back to the loopback listener after the last redirect. */
  async authorizationCode(): Promise<string> {
    if (this.pendingRedirect === undefined) throw new Error('The SDK never redirected to authorization');
    const redirect = await this.pendingRedirect;
    this.pendingRedirect = undefined;
    const code = redirect.searchParams.get('code');
    if (code === null) throw new Error(`The authorization server sent back no code: ${redirect.href}`);
    return code;
  }
}
