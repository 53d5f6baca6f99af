import { type ClientMetadata, errors } from 'oidc-provider';
import { checkRedirectUri } from './redirect-uris.js';

/**
 * Our rules for every client, dynamically registered, described by a metadata document or loaded
 * from storage (docs/authentication.md, "Registering a client"): bounded sizes, no control or
 * bidirectional-formatting character in any text, the redirect URIs we allow, no response mode but
 * the query, and no secret for a client that cannot keep one. The library calls `applyClientRules`
 * once for each property of `RULED_CLIENT_PROPERTIES`, in that order, after applying its defaults
 * and before its own checks (so a value may be of any type yet).
 */
const CLIENT_METADATA_LIMITS = {
  /** The consent page and the connected apps show it. */
  clientNameCharacters: 100,
  redirectUris: 10,
  uriCharacters: 2000,
  contacts: 10,
  /** The longest email address SMTP carries. */
  contactCharacters: 254,
} as const;

/** The client's links besides its redirect URIs; the library stores them as sent. */
const URI_PROPERTIES = [
  'client_uri',
  'logo_uri',
  'policy_uri',
  'tos_uri',
  'jwks_uri',
  'sector_identifier_uri',
  'initiate_login_uri',
] as const;

export const RULED_CLIENT_PROPERTIES: string[] = [
  'client_name',
  'redirect_uris',
  // After redirect_uris, which decides whether the client is a native app.
  'token_endpoint_auth_method',
  'contacts',
  'response_modes',
  ...URI_PROPERTIES,
];

/**
 * Characters that change how text around them is shown without being seen: C0 and C1 controls and
 * the bidirectional overrides, embeddings and isolates (a client name reading backwards on the
 * consent page). One character class: a test takes linear time.
 */
const INVISIBLE_FORMATTING = /[\p{Cc}\p{Bidi_Control}]/u;

/**
 * The response modes we offer: the code comes back in the redirect URI's query. A client may not
 * register others; the library would still answer in the fragment or a form_post page to a request
 * that names one, which no MCP client sends (docs/authentication.md).
 */
export const RESPONSE_MODES: readonly string[] = ['query'];

export function applyClientRules(
  _ctx: unknown,
  property: string,
  value: unknown,
  metadata: ClientMetadata,
): void {
  const { clientNameCharacters, uriCharacters, contacts, contactCharacters } = CLIENT_METADATA_LIMITS;
  refuseInvisibleFormatting(property, value);
  switch (property) {
    case 'token_endpoint_auth_method':
      applyPublicClientRule(metadata);
      return;
    case 'client_name':
      refuseLongText(property, value, clientNameCharacters);
      return;
    case 'redirect_uris':
      applyRedirectUriRules(value, metadata);
      return;
    case 'contacts':
      refuseLongList(property, value, contacts, 'addresses');
      for (const contact of asArray(value)) refuseLongText(property, contact, contactCharacters);
      return;
    case 'response_modes':
      if (
        value !== undefined &&
        (!Array.isArray(value) || value.some((mode) => !RESPONSE_MODES.includes(mode)))
      ) {
        throw new errors.InvalidClientMetadata(
          `response_modes: only ${RESPONSE_MODES.join(', ')} is supported`,
        );
      }
      return;
    default:
      refuseLongText(property, value, uriCharacters);
  }
}

/**
 * Refused redirect URIs get `invalid_redirect_uri` naming the URI and the rule (the library gives
 * that code to an `InvalidClientMetadata` whose description starts with `redirect_uris`; its own
 * `InvalidRedirectUri` would replace the description with a fixed one). A client with a
 * loopback or private-use redirect is a native app: the library then matches loopback redirects
 * ignoring the port, and accepts private-use schemes.
 */
function applyRedirectUriRules(value: unknown, metadata: ClientMetadata): void {
  const { redirectUris, uriCharacters } = CLIENT_METADATA_LIMITS;
  refuseLongList('redirect_uris', value, redirectUris, 'URIs');
  let native = false;
  for (const uri of asArray(value)) {
    if (typeof uri !== 'string') continue;
    if (uri.length > uriCharacters) {
      throw new errors.InvalidClientMetadata(
        `redirect_uris: at most ${uriCharacters} characters per URI; got one of ${uri.length}`,
      );
    }
    const check = checkRedirectUri(uri);
    if (!check.allowed) throw new errors.InvalidClientMetadata(`redirect_uris: ${check.reason}`);
    if (check.kind !== 'https') native = true;
  }
  if (native) metadata.application_type = 'native';
}

/**
 * A native app (a loopback or app-scheme redirect) cannot keep a secret: anyone with the app has it
 * (RFC 8252 §8.5), so it is registered as a public client whatever it asked. A public client gets
 * no secret: the library would otherwise make one for any registration that names no method.
 */
function applyPublicClientRule(metadata: ClientMetadata): void {
  if (metadata.application_type === 'native') metadata.token_endpoint_auth_method = 'none';
  if (metadata.token_endpoint_auth_method === 'none') {
    delete metadata.client_secret;
    delete metadata.client_secret_expires_at;
  }
}

function refuseInvisibleFormatting(property: string, value: unknown): void {
  const texts = Array.isArray(value) ? value : [value];
  if (!texts.some((text) => typeof text === 'string' && INVISIBLE_FORMATTING.test(text))) return;
  throw new errors.InvalidClientMetadata(
    `${property}: control and bidirectional-formatting characters are not allowed`,
  );
}

function refuseLongText(property: string, value: unknown, most: number): void {
  if (typeof value === 'string' && value.length > most) {
    throw new errors.InvalidClientMetadata(`${property}: at most ${most} characters; got ${value.length}`);
  }
}

function refuseLongList(property: string, value: unknown, most: number, items: string): void {
  if (Array.isArray(value) && value.length > most) {
    throw new errors.InvalidClientMetadata(`${property}: at most ${most} ${items}; got ${value.length}`);
  }
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
