import { config } from './config.js';

type Level = 'debug' | 'info' | 'warn' | 'error';
const rank: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

/** One JSON object per line on stderr, so stdout stays free for command output. */
function createLogger(bound: LogFields): Logger {
  const write = (level: Level, message: string, fields?: LogFields) => {
    if (rank[level] < rank[config().LOG_LEVEL]) return;
    const line = { time: new Date().toISOString(), level, msg: message, ...bound, ...fields };
    process.stderr.write(`${JSON.stringify(line, errorReplacer)}\n`);
  };
  return {
    debug: (message, fields) => write('debug', message, fields),
    info: (message, fields) => write('info', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    error: (message, fields) => write('error', message, fields),
    child: (fields) => createLogger({ ...bound, ...fields }),
  };
}

function errorReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message };
  return value;
}

export const logger: Logger = createLogger({});
