import { type ClientMetadata, errors } from 'oidc-provider';
import { checkRedirectUri } from './redirect-uris.js';

/**
 * Our rules for every client, dynamically registered, described by a metadata document or loaded
 * from storage (docs/authentication.md, "Registering a client"): bounded sizes, the redirect URIs
 * we allow, and no response mode but the query. The library calls `applyClientRules` once for each
 * property of `RULED_CLIENT_PROPERTIES`, before its own checks (so a value may be of any type yet).
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
  'contacts',
  'response_modes',
  ...URI_PROPERTIES,
];

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
  switch (property) {
    case 'client_name':
      refuseLongText(property, value, clientNameCharacters);
      return;
    case 'redirect_uris':
      applyRedirectUriRules(value, metadata);
      return;
    case 'contacts':
      refuseLongList(property, value, contacts, 'addresses', errors.InvalidClientMetadata);
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
 * Refused redirect URIs get `invalid_redirect_uri` naming the URI and the rule. A client with a
 * loopback or private-use redirect is a native app: the library then matches loopback redirects
 * ignoring the port, and accepts private-use schemes.
 */
function applyRedirectUriRules(value: unknown, metadata: ClientMetadata): void {
  const { redirectUris, uriCharacters } = CLIENT_METADATA_LIMITS;
  refuseLongList('redirect_uris', value, redirectUris, 'URIs', errors.InvalidRedirectUri);
  let native = false;
  for (const uri of asArray(value)) {
    if (typeof uri !== 'string') continue;
    if (uri.length > uriCharacters) {
      throw new errors.InvalidRedirectUri(
        `redirect_uris: at most ${uriCharacters} characters per URI; got one of ${uri.length}`,
      );
    }
    const check = checkRedirectUri(uri);
    if (!check.allowed) throw new errors.InvalidRedirectUri(`redirect_uris: ${check.reason}`);
    if (check.kind !== 'https') native = true;
  }
  if (native) metadata.application_type = 'native';
}

function refuseLongText(property: string, value: unknown, most: number): void {
  if (typeof value === 'string' && value.length > most) {
    throw new errors.InvalidClientMetadata(`${property}: at most ${most} characters; got ${value.length}`);
  }
}

function refuseLongList(
  property: string,
  value: unknown,
  most: number,
  items: string,
  refusal: new (description?: string) => Error,
): void {
  if (Array.isArray(value) && value.length > most) {
    throw new refusal(`${property}: at most ${most} ${items}; got ${value.length}`);
  }
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
