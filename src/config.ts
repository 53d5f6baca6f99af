import { z } from 'zod';

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
    // Vite (and so vitest) puts its own BASE_URL of "/" into the environment; it is not ours.
    BASE_URL: z.preprocess((value) => (value === '/' ? undefined : value), z.url().optional()),
    ALLOWED_ORIGINS: z
      .string()
      .default('')
      .transform((value) =>
        value
          .split(',')
          .map((origin) => origin.trim())
          .filter(Boolean),
      ),
    LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
    /** Signs cursors and access tokens. A fixed default keeps the demo usable; production sets its own. */
    SERVER_SECRET: z.string().min(16).default('dev-only-secret-change-me-in-production'),
    /** How long a call waits for Elasticsearch or MongoDB before answering `unavailable`. */
    BACKEND_TIMEOUT_MS: z.coerce.number().int().min(100).max(60000).default(2000),
    /** Unauthenticated requests allowed per client address per minute. */
    UNAUTHENTICATED_CALLS_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  })
  .transform((settings) => ({
    ...settings,
    BASE_URL: (settings.BASE_URL ?? `http://localhost:${settings.PORT}`).replace(/\/+$/, ''),
  }));

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid settings: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`),
    );
  }
  return parsed.data;
}

let loaded: Config | undefined;

/** The process's settings, parsed on first use. */
export function config(): Config {
  loaded ??= parseConfig(process.env);
  return loaded;
}
