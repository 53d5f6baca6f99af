import type { Client } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCity } from '../../src/reference/gazetteer.js';
import { createElasticsearchClient, indexNames } from '../../src/stores/elasticsearch.js';
import {
  createFreshIndices,
  deleteIndices,
  ensureIndices,
  indexDefinition,
  indexNamesForVersion,
  publishIndices,
} from '../../src/stores/search-indices.js';
import { testBackends } from '../support/backends.js';
import { runSeedCommand } from '../support/seed-command.js';

const SIZES = { leads: 3000, companies: 300, signals: 500 };

/** The seed command with this file's sizes, seed and day, into `prefix`. */
function seedCommand(prefix: string, ...extra: string[]): Promise<string> {
  const sizes = Object.entries(SIZES).flatMap(([name, value]) => [`--${name}`, String(value)]);
  return runSeedCommand(testBackends(), [
    ...sizes,
    ...['--seed', '7', '--now', '2026-11-01', '--prefix', prefix],
    ...extra,
  ]);
}

function city(name: string) {
  const found = findCity(name);
  if (!found) throw new Error(`no city ${name}`);
  return found;
}

describe('npm run seed', () => {
  const prefix = `${testBackends().indexPrefix}-seed`;
  const aliases = indexNames(prefix);
  let client: Client;
  let output: string;

  beforeAll(async () => {
    client = createElasticsearchClient({
      ELASTICSEARCH_URL: testBackends().elasticsearchUrl,
      BACKEND_TIMEOUT_MS: 30_000,
    });
    output = await seedCommand(prefix);
  }, 180_000);

  afterAll(async () => {
    await deleteIndices(client, prefix);
    await client.close();
  });

  const count = async (index: string, query?: object) => (await client.count({ index, query })).count;

  it('creates each index from its mapping, versioned behind its alias', async () => {
    const versioned = indexNamesForVersion(prefix);
    for (const kind of ['leads', 'companies', 'signals'] as const) {
      const aliased = await client.indices.getAlias({ name: aliases[kind] });
      expect(Object.keys(aliased)).toEqual([versioned[kind]]);
      expect(versioned[kind]).toBe(`${aliases[kind]}-v${indexDefinition(kind).version}`);
    }
    const mapping = await client.indices.getMapping({ index: aliases.leads });
    const leads = Object.values(mapping)[0]?.mappings;
    expect(leads?.dynamic).toBe('strict');
    expect(leads?.properties?.location).toMatchObject({ properties: { geo: { type: 'geo_point' } } });
  });

  it('loads every document and reports the rate', async () => {
    expect(await count(aliases.leads)).toBe(SIZES.leads);
    expect(await count(aliases.companies)).toBe(SIZES.companies);
    expect(await count(aliases.signals)).toBe(SIZES.signals);
    expect(output).toMatch(/leads\s+3,000 indexed in [\d.]+ s \([\d,]+ docs\/s\)/);
  });

  it('finds the leads of a city within a radius, and not those of a city 100+ km away', async () => {
    const london = city('London');
    const nearLondon = (distance: string) => ({
      bool: {
        filter: [{ geo_distance: { distance, 'location.geo': { lat: london.lat, lon: london.lon } } }],
      },
    });
    const inLondon = await count(aliases.leads, { term: { 'location.city': 'London' } });
    expect(inLondon).toBeGreaterThan(50);
    expect(await count(aliases.leads, nearLondon('25km'))).toBe(inLondon);
    const cities = await client.search({
      index: aliases.leads,
      size: 0,
      query: nearLondon('100km'),
      aggs: { cities: { terms: { field: 'location.city', size: 20 } } },
    });
    const found = (cities.aggregations?.cities as { buckets: Array<{ key: string }> }).buckets.map(
      (bucket) => bucket.key,
    );
    expect(found).toContain('Reading');
    expect(found).not.toContain('Birmingham');
  });

  it('matches a place typed in any form through location.keys', async () => {
    const inMunich = await count(aliases.leads, { term: { 'location.city': 'Munich' } });
    expect(inMunich).toBeGreaterThan(0);
    expect(await count(aliases.leads, { term: { 'location.keys': `city:${city('Munich').id}` } })).toBe(
      inMunich,
    );
    const inGermany = await count(aliases.leads, { term: { 'location.country_code': 'DE' } });
    expect(await count(aliases.leads, { term: { 'location.keys': 'country:de' } })).toBe(inGermany);
  });

  it('flags recruitment agencies and closed roles in the expected proportions', async () => {
    const agencies = await count(aliases.companies, { term: { is_agency: true } });
    expect(agencies / SIZES.companies).toBeGreaterThan(0.04);
    expect(agencies / SIZES.companies).toBeLessThan(0.13);
    expect(await count(aliases.leads, { term: { 'company.is_agency': true } })).toBeGreaterThan(0);
    const closed = await count(aliases.leads, { term: { is_open: false } });
    expect(closed / SIZES.leads).toBeGreaterThan(0.06);
    expect(closed / SIZES.leads).toBeLessThan(0.14);
  });

  it('skips a loaded index with --if-empty', async () => {
    const stdout = await seedCommand(prefix, '--if-empty');
    expect(stdout).toMatch(/already holds 3,000 leads: nothing to load/);
    expect(await count(aliases.leads)).toBe(SIZES.leads);
  });

  it('ensureIndices leaves loaded indices and their aliases alone', async () => {
    await ensureIndices(client, prefix);
    expect(await count(aliases.leads)).toBe(SIZES.leads);
  });
});

describe('index versions', () => {
  const prefix = `${testBackends().indexPrefix}-swap`;
  const aliases = indexNames(prefix);
  let client: Client;

  beforeAll(() => {
    client = createElasticsearchClient({
      ELASTICSEARCH_URL: testBackends().elasticsearchUrl,
      BACKEND_TIMEOUT_MS: 30_000,
    });
  });

  afterAll(async () => {
    await deleteIndices(client, prefix);
    await client.close();
  });

  it('builds the current version beside an older one and swaps the alias to it', async () => {
    for (const alias of Object.values(aliases)) {
      await client.indices.create({ index: `${alias}-v0`, aliases: { [alias]: {} } });
    }
    const fresh = await createFreshIndices(client, prefix);
    // Readers still see the old version while the new one is being loaded.
    expect(Object.keys(await client.indices.getAlias({ name: aliases.leads }))).toEqual([
      `${aliases.leads}-v0`,
    ]);
    await publishIndices(client, prefix, fresh);
    for (const kind of ['leads', 'companies', 'signals'] as const) {
      expect(Object.keys(await client.indices.getAlias({ name: aliases[kind] }))).toEqual([fresh[kind]]);
      expect(await client.indices.exists({ index: `${aliases[kind]}-v0` })).toBe(false);
    }
  });

  it('seeding the version the alias serves again builds a generation beside it; readers keep the old until the swap', async () => {
    const serving = indexNamesForVersion(prefix).leads;
    const servedBy = async () => Object.keys(await client.indices.getAlias({ name: aliases.leads }));
    expect(await servedBy()).toEqual([serving]);
    const again = await createFreshIndices(client, prefix, ['leads']);
    expect(again.leads).toMatch(new RegExp(`^${serving}-g\\d+$`));
    expect(await servedBy()).toEqual([serving]);
    await publishIndices(client, prefix, again);
    expect(await servedBy()).toEqual([again.leads]);
    expect(await client.indices.exists({ index: serving })).toBe(false);
  });
});
