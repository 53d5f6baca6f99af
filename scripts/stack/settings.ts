import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StackError } from './errors.js';

/** The repository root, found from this file so the commands work from any working directory. */
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface StackSettings {
  /** Everything the local build downloads, unpacks, logs and stores lives under here. */
  stackDir: string;
  esPort: number;
  esTransportPort: number;
  mongoPort: number;
  /** JVM heap for Elasticsearch, e.g. `2g` or `512m`. */
  esHeap: string;
  /**
   * `STACK_JIT`: `full` lets the JVMs compile hot code with both compilers, for a stack that lives
   * long (the demo, the benchmark); `quick` stops at the first tier (C1), for a stack started for
   * one test run: it reaches its speed with far less CPU, and peaks lower (docs/stack.md).
   */
  jit: 'full' | 'quick';
  /** `STACK_MODE`: `docker` or `local` skips the automatic choice (Docker when an engine answers). */
  forcedMode?: 'docker' | 'local';
}

type Env = Record<string, string | undefined>;

/**
 * `.stack/` in the checkout, unless STACK_DIR says otherwise. As root, Elasticsearch runs as a
 * system user that must be able to walk into its folder; a checkout under a private folder (`/root`,
 * a `mktemp -d`) cannot give it that, so there the stack lives in /var/tmp under a name tied to the
 * checkout.
 */
export function stackDirectory(env: Env = process.env): string {
  if (env.STACK_DIR) return path.resolve(projectRoot, env.STACK_DIR);
  if (process.getuid?.() !== 0 || othersCanEnter(projectRoot)) return path.join(projectRoot, '.stack');
  const checkout = createHash('sha256').update(projectRoot).digest('hex').slice(0, 12);
  return path.join('/var/tmp', `hiring-leads-stack-${checkout}`);
}

/** Whether users other than the owner may pass through `folder` and every folder above it. */
export function othersCanEnter(folder: string): boolean {
  for (let current = path.resolve(folder); ; current = path.dirname(current)) {
    if ((statSync(current).mode & 0o001) === 0) return false;
    if (path.dirname(current) === current) return true;
  }
}

export function stackSettings(env: Env = process.env): StackSettings {
  const esPort = port(env, 'ES_PORT', 9200);
  return {
    stackDir: stackDirectory(env),
    esPort,
    esTransportPort: port(env, 'ES_TRANSPORT_PORT', esPort + 100),
    mongoPort: port(env, 'MONGO_PORT', 27017),
    esHeap: heap(env.ES_HEAP || '2g'),
    jit: jit(env.STACK_JIT),
    ...forcedMode(env.STACK_MODE),
  };
}

function jit(raw: string | undefined): StackSettings['jit'] {
  if (!raw) return 'full';
  if (raw !== 'full' && raw !== 'quick') throw new StackError(`STACK_JIT=${raw} must be full or quick.`);
  return raw;
}

/** The JVM options of `settings.jit`, for both Java servers of the stack. */
export function jitOptions(settings: StackSettings): string[] {
  return settings.jit === 'quick' ? ['-XX:TieredStopAtLevel=1'] : [];
}

function forcedMode(raw: string | undefined): Pick<StackSettings, 'forcedMode'> {
  if (!raw) return {};
  if (raw !== 'docker' && raw !== 'local') throw new StackError(`STACK_MODE=${raw} must be docker or local.`);
  return { forcedMode: raw };
}

function port(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 65535) {
    throw new StackError(`${name}=${raw} is not a port number (1-65535).`);
  }
  return value;
}

function heap(raw: string): string {
  if (!/^\d+[mg]$/i.test(raw)) throw new StackError(`ES_HEAP=${raw} must look like 2g or 512m.`);
  return raw.toLowerCase();
}

export function elasticsearchUrlFor(settings: StackSettings): string {
  return `http://127.0.0.1:${settings.esPort}`;
}

/** `directConnection` keeps the driver from looking for a replica set the local servers do not have. */
export function mongodbUriFor(settings: StackSettings): string {
  return `mongodb://127.0.0.1:${settings.mongoPort}/?directConnection=true`;
}
