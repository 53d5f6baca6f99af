import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The layering ARCHITECTURE.md describes, checked on every import under src/ (type-only ones
 * included): no import circle, nothing from scripts/, seed/ or test/, and no layer importing one
 * above it. The table is ARCHITECTURE.md's, lowest layer first; a file belongs to the layer of the
 * longest path prefix that names it.
 */
const LAYERS: ReadonlyArray<{ name: string; paths: readonly string[] }> = [
  { name: 'foundation', paths: ['src/errors.ts', 'src/config.ts', 'src/logger.ts', 'src/metrics.ts'] },
  { name: 'domain', paths: ['src/domain/', 'src/reference/', 'src/feed/', 'src/plans.ts'] },
  { name: 'auth', paths: ['src/auth/'] },
  { name: 'schemas', paths: ['src/schemas/'] },
  { name: 'search', paths: ['src/search/'] },
  { name: 'stores', paths: ['src/stores/'] },
  { name: 'credentials', paths: ['src/auth/verify-credential.ts'] },
  { name: 'billing', paths: ['src/billing/'] },
  { name: 'services', paths: ['src/services.ts'] },
  { name: 'tools', paths: ['src/tools/'] },
  { name: 'mcp', paths: ['src/mcp/'] },
  { name: 'oauth', paths: ['src/oauth/', 'src/pages/'] },
  { name: 'http', paths: ['src/http/'] },
  { name: 'entry', paths: ['src/main.ts', 'src/admin/', 'src/ingest/'] },
];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(relative);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [relative] : [];
  });
}

/** Relative imports and re-exports of a file (static and dynamic), as repository paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  const specifiers = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+'([^']+)'/g),
    ...text.matchAll(/(?:^|\n)\s*import\s+'([^']+)'/g),
    ...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g),
  ].map((match) => match[1] ?? '');
  return specifiers
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) =>
      path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.js$/, '.ts'),
    );
}

function layerOf(file: string): number {
  let best = -1;
  let bestLength = 0;
  LAYERS.forEach((layer, rank) => {
    for (const prefix of layer.paths) {
      const matches = prefix.endsWith('/') ? file.startsWith(prefix) : file === prefix;
      if (matches && prefix.length > bestLength) {
        best = rank;
        bestLength = prefix.length;
      }
    }
  });
  return best;
}

const files = sourceFiles('src');
const graph = new Map(files.map((file) => [file, importsOf(file)]));

/** Every import circle, each as the path that closes it. */
function cycles(): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const target of graph.get(file) ?? []) {
      if (state.get(target) === 'open') found.push([...stack.slice(stack.indexOf(target)), target]);
      else if (!state.has(target) && graph.has(target)) visit(target);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return found;
}

describe('architecture', () => {
  it('reads the imports it checks', () => {
    expect(graph.get('src/main.ts')).toContain('src/http/app.ts');
    expect(graph.get('src/tools/define-tool.ts')).toContain('src/services.ts');
  });

  it('has no import circle under src/', () => {
    expect(cycles().map((cycle) => cycle.join(' -> '))).toEqual([]);
  });

  it('never imports scripts/, seed/ or test/ from src/', () => {
    const outside = [...graph].flatMap(([file, targets]) =>
      targets
        .filter((target) => /^(scripts|seed|test)\//.test(target))
        .map((target) => `${file} -> ${target}`),
    );
    expect(outside).toEqual([]);
  });

  it('puts every file under src/ in a layer', () => {
    expect(files.filter((file) => layerOf(file) < 0)).toEqual([]);
  });

  it('never lets a lower layer import a higher one', () => {
    const upward = [...graph].flatMap(([file, targets]) =>
      targets
        .filter((target) => target.startsWith('src/') && layerOf(target) > layerOf(file))
        .map(
          (target) =>
            `${file} (${LAYERS[layerOf(file)]?.name}) -> ${target} (${LAYERS[layerOf(target)]?.name})`,
        ),
    );
    expect(upward).toEqual([]);
  });
});
