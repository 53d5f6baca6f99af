/**
 * Keeps dist/ (the compiled server, `tsc -p tsconfig.build.json`) no older than its sources, for the
 * commands that run compiled code on a development machine (`npm run ingest`): compiled, a load
 * spends about a tenth less CPU and 15 MB less memory than through tsx (docs/performance.md,
 * "Loading the feed"). A build runs only when a source, a TypeScript setting or the lock file
 * changed since the last one, so an unchanged checkout starts at once.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** Written after each build this script ran; its time is the build's. */
const BUILT_MARKER = 'dist/.built';
const BUILD_INPUTS = ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

/** The latest change under `path`: files edited, added, or removed (a folder's time moves then). */
function latestChange(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let latest = stats.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, latestChange(join(path, entry)));
  return latest;
}

/** Runs `build` (by default tsc, stopping the process if it fails) when dist/ is older than its inputs. */
export function buildIfStale(root: string, build: (root: string) => void = compileWithTsc): void {
  const marker = join(root, BUILT_MARKER);
  const inputs = Math.max(
    latestChange(join(root, 'src')),
    ...BUILD_INPUTS.map((file) => join(root, file))
      .filter(existsSync)
      .map(latestChange),
  );
  if (existsSync(marker) && statSync(marker).mtimeMs >= inputs) return;
  build(root);
  writeFileSync(marker, '');
}

function compileWithTsc(root: string): void {
  console.error(
    'Compiling src/ into dist/ (tsc -p tsconfig.build.json): the sources changed since the last build',
  );
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) {
    console.error('The build failed (above); nothing was run.');
    process.exit(build.status ?? 1);
  }
}
