import { readFileSync } from 'node:fs';
import type { Client, estypes } from '@elastic/elasticsearch';
import { type IndexNames, indexNames, isIndexAlreadyCreated } from './elasticsearch.js';

/**
 * The application reads and writes aliases (`<prefix>-leads`); each alias points at one
 * versioned index (`<prefix>-leads-v1`) built from `index-mappings/<kind>.json`. A mapping
 * change bumps `version`: the seed builds the new index beside the old one, moves the alias
 * in one atomic `_aliases` call, then drops the old index, so readers never see a gap.
 */

export type IndexKind = keyof IndexNames;
/** The indices the feed loads; the roll-ups are computed from the leads (src/ingest/rollups.ts). */
export type FeedIndexKind = Exclude<IndexKind, 'rollups'>;

export const INDEX_KINDS: readonly FeedIndexKind[] = ['leads', 'companies', 'signals'];
const ALL_INDEX_KINDS: readonly IndexKind[] = [...INDEX_KINDS, 'rollups'];

export interface IndexDefinition {
  version: number;
  settings: estypes.IndicesIndexSettings;
  mappings: estypes.MappingTypeMapping;
}

const MAPPINGS_DIRECTORY = new URL('../../index-mappings/', import.meta.url);

const definitions = new Map<IndexKind, IndexDefinition>();

/** The definition in `index-mappings/<kind>.json`, read once. */
export function indexDefinition(kind: IndexKind): IndexDefinition {
  let definition = definitions.get(kind);
  if (!definition) {
    definition = JSON.parse(
      readFileSync(new URL(`${kind}.json`, MAPPINGS_DIRECTORY), 'utf8'),
    ) as IndexDefinition;
    if (!Number.isInteger(definition.version) || definition.version < 1) {
      throw new Error(`index-mappings/${kind}.json: "version" must be a positive integer`);
    }
    definitions.set(kind, definition);
  }
  return definition;
}

function mapKinds<T>(value: (kind: IndexKind) => T): Record<IndexKind, T> {
  return {
    leads: value('leads'),
    companies: value('companies'),
    signals: value('signals'),
    rollups: value('rollups'),
  };
}

/** The concrete indices the current mapping versions live in, e.g. `hl-leads-v1`. */
export function indexNamesForVersion(prefix: string): IndexNames {
  const aliases = indexNames(prefix);
  return mapKinds((kind) => `${aliases[kind]}-v${indexDefinition(kind).version}`);
}

/** Every versioned index of `kind` under `prefix`, whatever its version or generation (`-v2`, `-v2-g<time>`). */
async function existingVersions(client: Client, prefix: string, kind: IndexKind): Promise<string[]> {
  const alias = indexNames(prefix)[kind];
  const resolved = await client.indices.resolveIndex({ name: `${alias}-v*`, expand_wildcards: 'all' });
  const versioned = new RegExp(`^${alias.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-v\\d+(?:-g\\d+)?$`);
  return resolved.indices.map((index) => index.name).filter((name) => versioned.test(name));
}

async function createIndex(client: Client, kind: IndexKind, name: string): Promise<void> {
  const { settings, mappings } = indexDefinition(kind);
  try {
    await client.indices.create({ index: name, settings, mappings });
  } catch (error) {
    // Another process (a parallel test worker, a second server) created it first: same definition.
    if (!isIndexAlreadyCreated(error)) throw error;
  }
}

/**
 * Makes sure each alias exists and points at an index: when no index holds the alias yet,
 * creates the current version's index and gives the alias to it. An alias on any index (an
 * older version, a snapshot's generation) is left alone: the seed and ingest move it once a new
 * index is loaded. With `recreate`, every version under the prefix is dropped first and empty
 * indices are created.
 */
export async function ensureIndices(
  client: Client,
  prefix: string,
  options: { recreate?: boolean } = {},
): Promise<IndexNames> {
  if (options.recreate) await deleteIndices(client, prefix);
  const aliases = indexNames(prefix);
  const versioned = indexNamesForVersion(prefix);
  for (const kind of ALL_INDEX_KINDS) {
    if (await client.indices.existsAlias({ name: aliases[kind] })) continue;
    await createIndex(client, kind, versioned[kind]);
    await client.indices.putAlias({ index: versioned[kind], name: aliases[kind] });
  }
  return aliases;
}

/**
 * A new, empty generation of `kind`'s index beside the one the alias serves, named after the
 * current mapping version and the time (`hl-leads-v2-g1767225600000`), for a load to fill and
 * `publishIndices` to swap in.
 */
export async function createGeneration(
  client: Client,
  prefix: string,
  kind: IndexKind,
  now = Date.now(),
): Promise<string> {
  const name = `${indexNamesForVersion(prefix)[kind]}-g${now}`;
  await createIndex(client, kind, name);
  return name;
}

/**
 * Empty indices of the current versions of `kinds`, ready for a bulk load, the aliases untouched:
 * publish the names returned with `publishIndices` once loaded. A version its alias serves now
 * keeps serving, and a generation of it is created beside it, so readers of a prefix being
 * seeded again see the old data until the swap; any other index of that version is replaced.
 */
export async function createFreshIndices(
  client: Client,
  prefix: string,
  kinds: readonly IndexKind[] = INDEX_KINDS,
): Promise<Partial<Record<IndexKind, string>>> {
  const versioned = indexNamesForVersion(prefix);
  const aliases = indexNames(prefix);
  const names: Partial<Record<IndexKind, string>> = {};
  for (const kind of kinds) {
    if (await client.indices.existsAlias({ name: aliases[kind], index: versioned[kind] })) {
      names[kind] = await createGeneration(client, prefix, kind);
      continue;
    }
    await client.indices.delete({ index: versioned[kind], ignore_unavailable: true });
    await createIndex(client, kind, versioned[kind]);
    names[kind] = versioned[kind];
  }
  return names;
}

/**
 * Moves the aliases of the kinds in `targets` to the indices given (what `createFreshIndices` or
 * `createGeneration` made and a load filled) in one atomic call, then drops every other version
 * and generation of those kinds.
 */
export async function publishIndices(
  client: Client,
  prefix: string,
  targets: Partial<Record<IndexKind, string>>,
): Promise<void> {
  const aliases = indexNames(prefix);
  const actions: estypes.IndicesUpdateAliasesAction[] = [];
  const stale: string[] = [];
  for (const kind of ALL_INDEX_KINDS) {
    const target = targets[kind];
    if (target === undefined) continue;
    const older = (await existingVersions(client, prefix, kind)).filter((name) => name !== target);
    for (const name of older)
      actions.push({ remove: { index: name, alias: aliases[kind], must_exist: false } });
    actions.push({ add: { index: target, alias: aliases[kind] } });
    stale.push(...older);
  }
  await client.indices.updateAliases({ actions });
  if (stale.length > 0) await client.indices.delete({ index: stale, ignore_unavailable: true });
}

/** Drops every version of the indices under `prefix` (their aliases go with them). */
export async function deleteIndices(client: Client, prefix: string): Promise<void> {
  const names: string[] = [];
  for (const kind of ALL_INDEX_KINDS) names.push(...(await existingVersions(client, prefix, kind)));
  if (names.length > 0) await client.indices.delete({ index: names, ignore_unavailable: true });
}

/** Documents visible through the alias of `kind`, or 0 when the alias does not exist yet. */
export async function countDocuments(client: Client, prefix: string, kind: IndexKind): Promise<number> {
  const alias = indexNames(prefix)[kind];
  if (!(await client.indices.existsAlias({ name: alias }))) return 0;
  const { count } = await client.count({ index: alias });
  return count;
}
