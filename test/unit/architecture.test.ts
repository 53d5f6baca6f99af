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
  { name: 'metering', paths: ['src/metering/'] },
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

interface ImportStatement {
  /** A repository path for a relative import, else the package as written. */
  target: string;
  /** What the statement says between `import`/`export` and `from`, e.g. `type { estypes }`; empty for a bare or dynamic import. */
  clause: string;
}

const sources = new Map<string, string>();

function sourceOf(file: string): string {
  let text = sources.get(file);
  if (text === undefined) {
    text = readFileSync(path.join(root, file), 'utf8');
    sources.set(file, text);
  }
  return text;
}

/** Imports and re-exports of a file (static and dynamic), relative ones as repository paths. */
function importStatementsOf(file: string): ImportStatement[] {
  const text = sourceOf(file);
  return [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\s([^;]*?)\sfrom\s+'([^']+)'/g),
    ...text.matchAll(/(?:^|\n)\s*import\s+()'([^']+)'/g),
    ...text.matchAll(/\bimport\(\s*()'([^']+)'\s*\)/g),
  ].map(([, clause = '', specifier = '']) => ({
    clause: clause.replace(/\s+/g, ' ').trim(),
    target: specifier.startsWith('.')
      ? path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.js$/, '.ts')
      : specifier,
  }));
}

/** Relative imports and re-exports of a file, as repository paths. */
function importsOf(file: string): string[] {
  return importStatementsOf(file)
    .map((statement) => statement.target)
    .filter((target) => target.startsWith('src/'));
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
const outsideStores = files.filter((file) => !file.startsWith('src/stores/'));

/**
 * The store boundary (ARCHITECTURE.md, "What each layer may import"): only src/stores/ holds the clients
 * of Elasticsearch and MongoDB and calls them. Elsewhere a driver package may be imported for the
 * query language's types alone, the stores' connections only by the wiring that builds the stores
 * and the processes that open and close them, and nothing calls a method on a client.
 */
const DRIVER_PACKAGE = /^(?:mongodb|@elastic\/elasticsearch)(?:\/|$)/;
const DRIVER_TYPES_ALLOWED = 'type { estypes }';
const CONNECTION_MODULES = ['src/stores/mongo.ts', 'src/stores/elasticsearch.ts', 'src/stores/backends.ts'];
/** What any layer may take from those modules: telling an outage from a bug calls nothing. */
const OUTAGE_CHECKS = new Set(['isMongoOutage', 'isElasticsearchOutage']);
const WIRING = new Set([
  'src/services.ts',
  'src/main.ts',
  'src/admin/cli.ts',
  'src/admin/commands.ts',
  'src/ingest/cli.ts',
  'src/ingest/load.ts',
  'src/ingest/rollups.ts',
]);
/**
 * A method called on a client as the stores hold them: `mongo.client.close(`, `db.collection(`,
 * `elasticsearch.search(`. (`client` alone would be an OAuth client as often.)
 */
const CLIENT_CALL = /\b(?:mongo(?:\??\.(?:client|db))?|db|elasticsearch)\??\.\w+(?:\??\.\w+)*\s*\(/g;

/** The names a statement imports, `type` marks dropped: `{ a, type B }` gives a and B. */
function importedNames(clause: string): string[] {
  const names = /\{([^}]*)\}/.exec(clause)?.[1] ?? clause;
  return names
    .split(',')
    .map(
      (name) =>
        name
          .replace(/^\s*type\s+/, '')
          .split(/\s+as\s+/)[0]
          ?.trim() ?? '',
    )
    .filter((name) => name !== '' && name !== 'type');
}
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
    const outside = files.flatMap((file) =>
      importStatementsOf(file)
        .map(({ target }) => target)
        .filter((target) => /^(scripts|seed|test)\//.test(target))
        .map((target) => `${file} -> ${target}`),
    );
    expect(outside).toEqual([]);
  });

  it('puts every file under src/ in a layer', () => {
    expect(files.filter((file) => layerOf(file) < 0)).toEqual([]);
  });

  it('imports the database drivers only in src/stores/ (elsewhere, at most the query types)', () => {
    const found = outsideStores.flatMap((file) =>
      importStatementsOf(file)
        .filter(({ target, clause }) => DRIVER_PACKAGE.test(target) && clause !== DRIVER_TYPES_ALLOWED)
        .map(({ target, clause }) => `${file}: import ${clause} from '${target}'`),
    );
    expect(found).toEqual([]);
  });

  it("hands the stores' connections only to the wiring that builds the stores", () => {
    const found = outsideStores.flatMap((file) =>
      importStatementsOf(file)
        .filter(({ target }) => CONNECTION_MODULES.includes(target))
        .flatMap(({ target, clause }) =>
          importedNames(clause)
            .filter((name) => !OUTAGE_CHECKS.has(name) && !WIRING.has(file))
            .map((name) => `${file}: ${name} from ${target}`),
        ),
    );
    expect(found).toEqual([]);
  });

  it('calls no database client outside src/stores/', () => {
    const found = outsideStores.flatMap((file) =>
      [...sourceOf(file).matchAll(CLIENT_CALL)].map((match) => `${file}: ${match[0]}`),
    );
    expect(found).toEqual([]);
  });

  it('would see a client called or imported where it must not be', () => {
    expect('  await services.mongo.db.collection('.match(CLIENT_CALL)).not.toBeNull();
    expect('elasticsearch.search({'.match(CLIENT_CALL)).not.toBeNull();
    expect(importedNames('{ type MongoHandle, connectMongo as connect }')).toEqual([
      'MongoHandle',
      'connectMongo',
    ]);
    expect(DRIVER_PACKAGE.test('@elastic/elasticsearch/lib/api/types')).toBe(true);
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
