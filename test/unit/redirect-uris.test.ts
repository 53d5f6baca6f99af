import { describe, expect, it } from 'vitest';
import { checkRedirectUri } from '../../src/oauth/redirect-uris.js';

describe('checkRedirectUri', () => {
  it.each([
    ['https://claude.ai/api/mcp/auth_callback', 'https'],
    ['https://chatgpt.com/connector_platform_oauth_redirect', 'https'],
    ['https://vscode.dev/redirect', 'https'],
    ['http://127.0.0.1:33418', 'loopback'],
    ['http://127.0.0.1/callback', 'loopback'],
    ['http://localhost:6274/oauth/callback', 'loopback'],
    ['http://[::1]:8080/callback', 'loopback'],
    ['cursor://anysphere.cursor-mcp/oauth/callback', 'private-use'],
    ['vscode://vscode.github-authentication/did-authenticate', 'private-use'],
    ['com.example.app:/oauth2redirect', 'private-use'],
  ])('allows %s (%s)', (uri, kind) => {
    expect(checkRedirectUri(uri)).toEqual({ allowed: true, kind });
  });

  it.each([
    ['http://evil.example/callback', 'plain http'],
    ['http://127.0.0.1.evil.example/callback', 'plain http'],
    ['http://localhost.evil.example/callback', 'plain http'],
    ['http://10.0.0.5/callback', 'plain http'],
    ['javascript:alert(1)', 'javascript scheme'],
    ['data:text/html,hi', 'data scheme'],
    ['file:///etc/passwd', 'file scheme'],
    ['https://client.example/callback#fragment', 'fragment'],
    ['https://user:pass@client.example/callback', 'user information'],
    ['not a uri', 'not a valid URI'],
  ])('refuses %s, saying why (%s)', (uri, why) => {
    const check = checkRedirectUri(uri);
    expect(check.allowed).toBe(false);
    if (!check.allowed) {
      expect(check.reason).toContain(uri);
      expect(check.reason).toContain(why);
    }
  });
});
