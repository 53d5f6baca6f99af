import { type DestinationStream, type Logger as PinoLogger, pino } from 'pino';
import { config } from './config.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

/**
 * Field names that would hold a credential, on a line or in the request parts a line might carry.
 * The code never hands the logger a key, token, password or secret (docs/observability.md); should
 * one slip in under one of these names, it is written as `[redacted]`. Paths are named in full:
 * wildcards would cost several microseconds on every line.
 */
const SECRET_FIELDS = [
  'authorization',
  'cookie',
  'password',
  'secret',
  'client_secret',
  'SERVER_SECRET',
  'key',
  'api_key',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
];
const REDACTED_PATHS = [
  ...SECRET_FIELDS,
  ...['headers', 'body', 'query', 'form'].flatMap((part) => SECRET_FIELDS.map((field) => `${part}.${field}`)),
  'headers["set-cookie"]',
];

/**
 * Lines waiting for a slow reader of stderr beyond this are dropped rather than held: a stuck log
 * pipe must neither stall the server nor grow its memory without bound.
 */
const MAX_BUFFERED_LOG_BYTES = 16 * 1024 * 1024;

/**
 * A pino logger writing one JSON object per line (`level`, `time`, `pid`, `hostname`, the bound
 * and given fields, `msg`) to `destination`: stderr by default, so stdout stays free for command
 * output. An `error` field is written as its name, message and code, never a whole error object.
 */
export function createLogger(options: { level: LogLevel; destination?: DestinationStream }): Logger {
  const destination =
    options.destination ?? pino.destination({ dest: 2, sync: false, maxLength: MAX_BUFFERED_LOG_BYTES });
  return new JsonLinesLogger(
    pino(
      {
        level: options.level,
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
        serializers: { error: describeError },
        redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      },
      destination,
    ),
  );
}

/**
 * Our `message, fields` calls in pino's `fields, message` order. A child keeps its fields and adds
 * them to each line it writes, rather than being a pino child: the server makes three children per
 * request (request id, caller, tool), and a pino child costs about 3 µs to make, several times what
 * it saves on the one or two lines each of ours writes (docs/performance.md, "Logging").
 */
class JsonLinesLogger implements Logger {
  constructor(
    private readonly lines: PinoLogger,
    private readonly bound?: LogFields,
  ) {}

  debug(message: string, fields?: LogFields): void {
    this.write('debug', message, fields);
  }

  info(message: string, fields?: LogFields): void {
    this.write('info', message, fields);
  }

  warn(message: string, fields?: LogFields): void {
    this.write('warn', message, fields);
  }

  error(message: string, fields?: LogFields): void {
    this.write('error', message, fields);
  }

  private write(level: 'debug' | 'info' | 'warn' | 'error', message: string, fields?: LogFields): void {
    if (!this.lines.isLevelEnabled(level)) return;
    const line = this.bound === undefined ? fields : { ...this.bound, ...fields };
    if (line === undefined) this.lines[level](message);
    else this.lines[level](line, message);
  }

  child(fields: LogFields): Logger {
    return new JsonLinesLogger(this.lines, { ...this.bound, ...fields });
  }
}

function describeError(value: unknown): unknown {
  if (!(value instanceof Error)) return value;
  const { code } = value as { code?: unknown };
  return {
    name: value.name,
    message: value.message,
    ...((typeof code === 'string' || typeof code === 'number') && { code }),
  };
}

let root: Logger | undefined;

/** The process's logger, at LOG_LEVEL on stderr; created on first use, so importing it reads no settings. */
function rootLogger(): Logger {
  root ??= createLogger({ level: config().LOG_LEVEL });
  return root;
}

export const logger: Logger = {
  debug: (message, fields) => rootLogger().debug(message, fields),
  info: (message, fields) => rootLogger().info(message, fields),
  warn: (message, fields) => rootLogger().warn(message, fields),
  error: (message, fields) => rootLogger().error(message, fields),
  child: (fields) => rootLogger().child(fields),
};
