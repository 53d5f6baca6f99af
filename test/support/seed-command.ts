import { execFile } from 'node:child_process';
import { existsSync, readFileSync, renameSync, watch, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TestBackends } from './backends.js';
import { compiledScript } from './compiled-sources.js';

// Kept apart from seeded-data.ts, which loads the server's modules: the global setup seeds through
// this module and would otherwise load them in vitest's main process before any file can start.

/**
 * The fixed data set the tool tests read: seeded once per run into the run's index prefix by the
 * global setup, with a fixed `--now`, and served by test servers whose clock is pinned to that
 * same day, so "posted within 7 days" means the same roles on every run.
 */
export const SEEDED = {
  leads: 6000,
  companies: 400,
  signals: 1500,
  seed: 7,
  now: '2026-11-01',
} as const;

const run = promisify(execFile);

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command line script (`seed/cli.ts`, `src/ingest/cli.ts`) the way a user does, as a child
 * process against the given backends, from the run's compiled sources. Not the whole of
 * process.env: vitest adds Vite's BASE_URL ("/"), which the config rejects.
 */
export async function runScript(
  backends: TestBackends,
  script: string,
  flags: string[],
): Promise<CommandResult> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [compiledScript(backends.compiledSources, script), ...flags],
      {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          ELASTICSEARCH_URL: backends.elasticsearchUrl,
          MONGODB_URI: backends.mongodbUri,
          MONGODB_DB: backends.mongoDb,
          LOG_LEVEL: 'warn',
        },
        timeout: 180_000,
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** `npm run seed` with `flags`; its output, or an error holding everything it printed. */
export async function runSeedCommand(backends: TestBackends, flags: string[]): Promise<string> {
  const result = await runScript(backends, 'seed/cli.ts', flags);
  if (result.code !== 0)
    throw new Error(`npm run seed failed (${result.code}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** Seeds the fixed data set into the run's prefix (about 5 s at this size on two cores, once per run). */
export async function seedTestData(backends: TestBackends): Promise<void> {
  const flags = Object.entries(SEEDED).flatMap(([name, value]) => [`--${name}`, String(value)]);
  await runSeedCommand(backends, [...flags, '--prefix', backends.indexPrefix]);
}

/** How the seed ended: `error` holds the seed command's failure. */
export interface SeedOutcome {
  error?: string;
}

/** Written whole (a rename), so a reader never sees half of it. */
export function writeSeedOutcome(file: string, outcome: SeedOutcome): void {
  writeFileSync(`${file}.partial`, JSON.stringify(outcome));
  renameSync(`${file}.partial`, file);
}

/** Resolves with the seed's outcome once the global setup has written it. */
export async function seedOutcome(file: string): Promise<SeedOutcome> {
  if (!existsSync(file)) {
    const watcher = watch(path.dirname(file));
    try {
      await new Promise<void>((resolve, reject) => {
        watcher.on('change', () => {
          if (existsSync(file)) resolve();
        });
        watcher.on('error', reject);
        // Written between the first look and the watch's start.
        if (existsSync(file)) resolve();
      });
    } finally {
      watcher.close();
    }
  }
  return JSON.parse(readFileSync(file, 'utf8')) as SeedOutcome;
}
