import { readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

/** The folders whose TypeScript spawned processes run: the server, the seed and what they import. */
const COMPILED = ['src', 'seed', 'scripts'];
/** Top-level entries never linked into the copy: version control, caches, the stack's data. */
const NOT_LINKED = new Set(['.git', '.cache', '.stack', 'node_modules']);

/**
 * Compiles the repository's TypeScript once per test run into `folder`, laid out as the
 * repository is, so that the servers, seeds and ingests the tests start as processes run
 * JavaScript instead of each going through tsx's loader again: about a second of CPU less per
 * process (docs/testing.md, "Time"). esbuild does what tsx does to each file, type
 * stripping only. `folder` lies inside the repository, so packages resolve from its node_modules;
 * every other top-level entry is linked, so paths relative to a module (index-mappings/,
 * dist/views/, stack/) lead where they lead from the sources.
 */
export async function compileSources(root: string, folder: string): Promise<void> {
  const entryPoints = COMPILED.flatMap((directory) =>
    (readdirSync(path.join(root, directory), { recursive: true }) as string[])
      .filter((file) => /(?<!\.d)\.ts$|\.json$/.test(file))
      .map((file) => path.join(directory, file)),
  );
  await build({
    absWorkingDir: root,
    entryPoints,
    outdir: folder,
    outbase: '.',
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node}`,
    loader: { '.json': 'copy' },
    logLevel: 'warning',
  });
  for (const entry of readdirSync(root)) {
    if (!COMPILED.includes(entry) && !NOT_LINKED.has(entry)) {
      symlinkSync(path.join(root, entry), path.join(folder, entry));
    }
  }
}

/** The compiled copy in `folder` of `script`, a path such as `src/main.ts`: what node runs. */
export function compiledScript(folder: string, script: string): string {
  return path.join(folder, script.replace(/\.ts$/, '.js'));
}
