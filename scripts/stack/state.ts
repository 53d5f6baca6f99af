import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stackDirectory } from './settings.js';

export type StackMode = 'external' | 'docker' | 'local';

/** What `stack:up` leaves in `<stack dir>/state.json` for the other commands, the server and the seed. */
export interface StackState {
  mode: StackMode;
  elasticsearchUrl: string;
  mongodbUri: string;
  startedAt: string;
  /** Local build only: the Elasticsearch server JVM and the MongoDB-wire server. */
  pids?: { elasticsearch?: number; mongo?: number };
}

export interface StackUrls {
  elasticsearchUrl: string;
  mongodbUri: string;
}

function stateFile(stackDir: string): string {
  return path.join(stackDir, 'state.json');
}

export function readStackState(stackDir: string = stackDirectory()): StackState | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(stateFile(stackDir), 'utf8'));
  } catch {
    // No stack started yet, or a file cut short by a crash: either way there is no stack to find.
    return undefined;
  }
  return isStackState(parsed) ? parsed : undefined;
}

function isStackState(value: unknown): value is StackState {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    ['external', 'docker', 'local'].includes(candidate.mode as string) &&
    typeof candidate.elasticsearchUrl === 'string' &&
    typeof candidate.mongodbUri === 'string'
  );
}

export function writeStackState(stackDir: string, state: StackState): void {
  mkdirSync(stackDir, { recursive: true });
  writeFileSync(stateFile(stackDir), `${JSON.stringify(state, null, 2)}\n`);
}

export function removeStackState(stackDir: string): void {
  rmSync(stateFile(stackDir), { force: true });
}

/**
 * The URLs of the stack `stack:up` started, or undefined when none was. Callers read
 * `ELASTICSEARCH_URL` / `MONGODB_URI` first and fall back to these, then to the defaults.
 */
export function readStackUrls(stackDir: string = stackDirectory()): StackUrls | undefined {
  const state = readStackState(stackDir);
  return state && { elasticsearchUrl: state.elasticsearchUrl, mongodbUri: state.mongodbUri };
}

/**
 * Points a process started from this checkout (the server, the admin CLI, the seed, the bench) at
 * the stack `stack:up` started, unless the environment names the backends itself. The server never
 * reads this file: its settings come from the environment alone, and `scripts/with-stack.ts`
 * passes these in.
 */
export function useStackUrlsUnlessSet(env: NodeJS.ProcessEnv): void {
  const stack = readStackUrls();
  if (stack === undefined) return;
  env.ELASTICSEARCH_URL ||= stack.elasticsearchUrl;
  env.MONGODB_URI ||= stack.mongodbUri;
}
