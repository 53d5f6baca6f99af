import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP, isIPv4 } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { JWK } from 'jose';
import { z } from 'zod';

const commaSeparated = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  );

const origin = z
  .string()
  .refine(
    (value) => URL.canParse(value) && new URL(value).origin !== 'null',
    'must be an origin like https://app.example.com',
  )
  .transform((value) => new URL(value).origin);

/** A DNS name, an IPv4 address or a bracketed IPv6 address, as the `Host` header carries them. */
const hostName = z
  .string()
  .regex(
    /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)$/i,
    'must be a host name without scheme or port, e.g. leads.example.com',
  )
  .transform((value) => value.toLowerCase());

/** The forms express accepts: true/false, a number of hops, or addresses, subnets and names. */
const trustProxy = z
  .string()
  .default('false')
  .transform((value, context): boolean | number | string[] => {
    const trimmed = value.trim().toLowerCase();
    if (trimmed === 'true' || trimmed === 'false') return trimmed === 'true';
    if (/^\d+$/.test(trimmed)) return Number(trimmed);
    const entries = trimmed.split(',').map((entry) => entry.trim());
    const invalid = entries.filter((entry) => !isTrustedProxyEntry(entry));
    if (invalid.length > 0) {
      context.addIssue({
        code: 'custom',
        message: `must be true, false, a hop count, or comma-separated addresses, subnets or loopback/linklocal/uniquelocal; not ${invalid.join(', ')}`,
      });
      return z.NEVER;
    }
    return entries;
  });

function isTrustedProxyEntry(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', range, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (range === undefined) return true;
  if (/^\d+$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isIPv4(range);
}

const milliseconds = z.coerce.number().int().min(100).max(600_000);

/**
 * Every setting the server reads, parsed once from the environment. Anything else in
 * `src/` takes its settings from here, never from `process.env`.
 */
const configSchema = z
  .object({
    ELASTICSEARCH_URL: z.url().default('http://127.0.0.1:9200'),
    MONGODB_URI: z
      .string()
      .regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb:// or mongodb+srv://')
      .default('mongodb://127.0.0.1:27017'),
    MONGODB_DB: z.string().min(1).default('hiring_leads'),
    INDEX_PREFIX: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_-]*$/, 'lowercase letters, digits, - and _ only')
      .default('hl'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('127.0.0.1'),
    /** The Prometheus metrics listener's port; unset, there is none (docs/observability.md). */
    METRICS_PORT: z.preprocess(
      (value) => (value === '' ? undefined : value),
      z.coerce.number().int().min(0).max(65535).optional(),
    ),
    /** Where the metrics listener binds: loopback unless the scraper is on another host. */
    METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    // Vite (and so vitest) puts its own BASE_URL of "/" into the environment; it is not ours.
    BASE_URL: z.preprocess((value) => (value === '/' ? undefined : value), z.url().optional()),
    /** Browser origins allowed on `/mcp` besides the defaults that `BASE_URL` implies. */
    ALLOWED_ORIGINS: commaSeparated.pipe(z.array(origin)),
    /** `Host` names (no port) served besides `BASE_URL`'s, e.g. the name a proxy forwards. */
    ALLOWED_HOSTS: commaSeparated.pipe(z.array(hostName)),
    /** Which proxies may tell the client address (`X-Forwarded-For`); express's `trust proxy`. */
    TRUST_PROXY: trustProxy,
    LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
    /** Signs cursors and access tokens; `parseConfig` refuses a missing or weak one (see `checkServerSecret`). */
    SERVER_SECRET: z.string().optional(),
    /** `development`, with a loopback HOST, is the one case where a weak or missing SERVER_SECRET is let through. */
    NODE_ENV: z.string().optional(),
    /** How long a call waits for Elasticsearch or MongoDB before answering `unavailable`. */
    BACKEND_TIMEOUT_MS: z.coerce.number().int().min(100).max(60000).default(2000),
    /**
     * Where a process writes down the quota refunds it owes until MongoDB takes them, so that the
     * next process started on this folder finishes them should it die (docs/search-semantics.md).
     */
    PENDING_REFUNDS_DIR: z.string().min(1).default(path.join(tmpdir(), 'hiring-leads-refunds')),
    /**
     * How old a process's copy of a key, account, user or grant may be when a call uses it: a
     * revocation or suspension reaches every process within this time (docs/performance.md).
     */
    IDENTITY_CACHE_MS: z.coerce.number().int().min(0).max(1000).default(1000),
    /**
     * `on`: company rankings and market insights read the roll-ups while they are complete for the
     * live leads index (docs/decisions/rollups.md); `off`: they always count the roles themselves.
     */
    ROLLUPS: z.enum(['on', 'off']).default('on'),
    /** Unauthenticated requests allowed per client address per minute. */
    UNAUTHENTICATED_CALLS_PER_MINUTE: z.coerce.number().int().min(1).default(120),
    /** How long a client may take to send a request's headers: slow-header clients are cut off. */
    HTTP_HEADERS_TIMEOUT_MS: milliseconds.default(10_000),
    /** How long a client may take to send a whole request, body included. */
    HTTP_REQUEST_TIMEOUT_MS: milliseconds.default(30_000),
    /** How long an idle keep-alive connection stays open; above the idle timeout of a proxy in front. */
    HTTP_KEEP_ALIVE_TIMEOUT_MS: milliseconds.default(5_000),
    /** Open connections beyond this are closed at once. */
    HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).default(1024),
    /**
     * The authorization server's signing keys: a JSON Web Key Set with private keys (ES256), the
     * first signing; unset, keys are generated once and kept in MongoDB (docs/authentication.md).
     */
    OAUTH_JWKS: z.string().optional(),
    /** A file holding that key set instead, e.g. a mounted secret. */
    OAUTH_JWKS_FILE: z.string().optional(),
    /** Dynamic client registrations allowed per client address (an IPv6 /64) per minute. */
    OAUTH_REGISTRATIONS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(10),
    /** `closed` removes the sign-up page: operators then create users with `admin user create`. */
    SIGNUP: z.enum(['open', 'closed']).default('open'),
    /** Failed sign-ins per email in a 15-minute window; further attempts are refused until it ends. */
    SIGN_IN_FAILURES_PER_EMAIL: z.coerce.number().int().min(1).max(1000).default(5),
    /** Failed sign-ins per client address (an IPv6 /64) in a 15-minute window, whatever the emails. */
    SIGN_IN_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(50),
    /** Sign-in, sign-up and consent form posts per client address per minute, refused before they are read. */
    SIGN_IN_FORMS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(30),
    /** Client metadata documents fetched per client address per minute (an unauthenticated request triggers one). */
    CLIENT_METADATA_FETCHES_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(10),
  })
  .refine((settings) => settings.HTTP_HEADERS_TIMEOUT_MS <= settings.HTTP_REQUEST_TIMEOUT_MS, {
    path: ['HTTP_HEADERS_TIMEOUT_MS'],
    message: 'must not exceed HTTP_REQUEST_TIMEOUT_MS (the headers are part of the request)',
  })
  .transform(({ OAUTH_JWKS, OAUTH_JWKS_FILE, ...settings }, context) => ({
    ...settings,
    BASE_URL: withoutTrailingSlashes(settings.BASE_URL ?? `http://localhost:${settings.PORT}`),
    OAUTH_JWKS: signingKeySet({ inline: OAUTH_JWKS, file: OAUTH_JWKS_FILE }, context),
  }));

function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url[end - 1] === '/') end--;
  return url.slice(0, end);
}

/**
 * `OAUTH_JWKS` or the file `OAUTH_JWKS_FILE` names: a JSON Web Key Set of ES256 private keys with
 * distinct `kid`s, the first signing. Undefined when neither is set.
 */
function signingKeySet(
  source: { inline: string | undefined; file: string | undefined },
  context: z.RefinementCtx,
): JWK[] | undefined {
  const problem = (path: string, message: string) => {
    context.addIssue({ code: 'custom', path: [path], message });
    return undefined;
  };
  if (source.inline !== undefined && source.file !== undefined) {
    return problem('OAUTH_JWKS_FILE', 'set OAUTH_JWKS or OAUTH_JWKS_FILE, not both');
  }
  const path = source.file === undefined ? 'OAUTH_JWKS' : 'OAUTH_JWKS_FILE';
  let text = source.inline;
  if (source.file !== undefined) {
    try {
      text = readFileSync(source.file, 'utf8');
    } catch (error) {
      return problem(path, `cannot read ${source.file}: ${(error as Error).message}`);
    }
  }
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return problem(path, 'must be a JSON Web Key Set: {"keys": [...]}');
  }
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0) {
    return problem(path, 'must be a JSON Web Key Set with at least one key: {"keys": [...]}');
  }
  const kids = new Set<string>();
  for (const [index, key] of (keys as JWK[]).entries()) {
    if (key?.kty !== 'EC' || key.crv !== 'P-256' || typeof key.d !== 'string') {
      return problem(path, `key ${index} must be an ES256 private key (kty EC, crv P-256, with d)`);
    }
    if (typeof key.kid !== 'string' || key.kid === '' || kids.has(key.kid)) {
      return problem(path, `key ${index} must have a kid of its own`);
    }
    kids.add(key.kid);
  }
  return (keys as JWK[]).map((key) => ({ ...key, alg: 'ES256', use: 'sig' }));
}

type ParsedSettings = z.infer<typeof configSchema>;

/** Every setting but the secret: what the logger and the commands that sign nothing (admin, seed) read. */
export type ConfigWithoutSecret = Omit<ParsedSettings, 'SERVER_SECRET' | 'NODE_ENV'>;

/**
 * The server's settings: a usable secret, the warnings to log when it starts, and whether this is a
 * developer's server only this machine can reach (NODE_ENV=development on a loopback HOST).
 */
export type Config = ConfigWithoutSecret & {
  SERVER_SECRET: string;
  startupWarnings: string[];
  localDevelopment: boolean;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid settings: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

function parseSettings(env: Record<string, string | undefined>): ParsedSettings {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`),
    );
  }
  return parsed.data;
}

/** The server's settings; a missing or weak SERVER_SECRET is refused (see `checkServerSecret`). */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const { SERVER_SECRET, NODE_ENV, ...settings } = parseSettings(env);
  const secret = checkServerSecret({ secret: SERVER_SECRET, host: settings.HOST, nodeEnv: NODE_ENV });
  if (!secret.usable) throw new ConfigError([secret.problem]);
  return {
    ...settings,
    SERVER_SECRET: secret.secret,
    startupWarnings: secret.warning === undefined ? [] : [secret.warning],
    localDevelopment: isLocalDevelopment(settings.HOST, NODE_ENV),
  };
}

const MINIMUM_SECRET_BYTES = 32;
/** Earlier versions shipped this as the default: it is public, so it must never sign anything. */
const PUBLISHED_DEVELOPMENT_SECRET = 'dev-only-secret-change-me-in-production';
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', '::1', 'localhost']);
const HOW_TO_MAKE_ONE =
  `Set it to a random value of at least ${MINIMUM_SECRET_BYTES} bytes, e.g. SERVER_SECRET=$(openssl rand -base64 48); ` +
  'only a server bound to loopback (HOST 127.0.0.1, ::1 or localhost) with NODE_ENV=development may run without one.';

function isLocalDevelopment(host: string, nodeEnv: string | undefined): boolean {
  return nodeEnv === 'development' && LOOPBACK_HOSTS.has(host.toLowerCase());
}

export type ServerSecretCheck =
  | { usable: true; secret: string; warning?: string }
  | { usable: false; problem: string };

/**
 * Anyone who knows the secret can sign access tokens for any account, so a missing, short or
 * published one stops the server. A developer's server that only this machine can reach
 * (loopback HOST, NODE_ENV=development) runs anyway, with a warning: with no secret at all it
 * signs with a random one of its own, which no other process shares and no restart keeps.
 */
export function checkServerSecret(input: {
  secret: string | undefined;
  host: string;
  nodeEnv: string | undefined;
}): ServerSecretCheck {
  const { secret } = input;
  const weakness = !secret
    ? 'is not set'
    : secret === PUBLISHED_DEVELOPMENT_SECRET
      ? 'is the published development value'
      : Buffer.byteLength(secret) < MINIMUM_SECRET_BYTES
        ? `is shorter than ${MINIMUM_SECRET_BYTES} bytes`
        : undefined;
  if (secret && weakness === undefined) return { usable: true, secret };
  const localDevelopment = isLocalDevelopment(input.host, input.nodeEnv);
  if (!localDevelopment) return { usable: false, problem: `SERVER_SECRET ${weakness}. ${HOW_TO_MAKE_ONE}` };
  if (!secret) {
    return {
      usable: true,
      secret: randomBytes(48).toString('base64'),
      warning:
        'SERVER_SECRET is not set: signing with a random secret of this process (development on loopback only); ' +
        'its cursors and access tokens are refused by other processes and after a restart.',
    };
  }
  return {
    usable: true,
    secret,
    warning: `SERVER_SECRET ${weakness}: accepted for development on loopback only.`,
  };
}

let loaded: ConfigWithoutSecret | undefined;

/**
 * The process's settings but the secret, parsed on first use: enough for the logger and for the
 * commands that sign nothing (admin, seed). The server reads its own with `parseConfig`.
 */
export function config(): ConfigWithoutSecret {
  if (loaded === undefined) {
    const { SERVER_SECRET: _secret, NODE_ENV: _mode, ...settings } = parseSettings(process.env);
    loaded = settings;
  }
  return loaded;
}
