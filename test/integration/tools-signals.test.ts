import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignalDoc } from '../../src/domain/documents.js';
import {
  allSignals,
  callError,
  callOk,
  connectSeededClient,
  type Json,
  newestSignalsFirst,
  openSeededIndex,
  type SeededIndex,
  seededDaysAgo,
  startSeededServer,
} from '../support/seeded-data.js';
import type { TestServer } from '../support/test-server.js';

describe('search_signals over the seeded data', () => {
  let server: TestServer;
  let client: Client;
  let index: SeededIndex;
  let signals: SignalDoc[];

  beforeAll(async () => {
    server = await startSeededServer();
    ({ client } = await connectSeededClient(server));
    index = openSeededIndex();
    signals = (await allSignals(index)).sort(newestSignalsFirst);
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
    await index?.close();
  });

  /** Every page of a search, page after page; returns the ids seen. */
  async function readAll(args: Record<string, unknown>, pageSize = 25): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await callOk(client, 'search_signals', { ...args, page_size: pageSize, cursor });
      expect(page.returned).toBe(page.signals.length);
      seen.push(...page.signals.map((signal: Json) => signal.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
    return seen;
  }

  it('returns the newest signals first, with the fields of the spec and no quota', async () => {
    const result = await callOk(client, 'search_signals', {});
    expect(result.returned).toBe(10);
    expect(result.quota).toBeUndefined();
    expect(result.signals.map((signal: Json) => signal.id)).toEqual(signals.slice(0, 10).map((s) => s.id));
    const doc = signals[0] as SignalDoc;
    expect(result.signals[0]).toEqual({
      id: doc.id,
      company: { id: doc.company.id, name: doc.company.name, logo_url: doc.company.logo_url },
      category: doc.category,
      polarity: doc.polarity,
      title: doc.title,
      summary: doc.summary,
      url: doc.url,
      country: doc.country,
      announced_on: doc.announced_on,
    });
  });

  it.each([
    [{ countries: ['IE', 'AT'] }, (signal: SignalDoc) => ['IE', 'AT'].includes(signal.country)],
    [
      { categories: ['layoff', 'grant'] },
      (signal: SignalDoc) => ['layoff', 'grant'].includes(signal.category),
    ],
    [{ polarity: 'negative' }, (signal: SignalDoc) => signal.polarity === 'negative'],
    [
      { company_size: 'startup', countries: ['GB'] },
      (s: SignalDoc) => s.company.size_band === 'startup' && s.country === 'GB',
    ],
    [
      { announced_within_days: 30, categories: ['funding'] },
      (signal: SignalDoc) => signal.announced_on >= seededDaysAgo(30) && signal.category === 'funding',
    ],
  ] as const)('filters %j, paging to the end in order', async (args, matches) => {
    const expected = signals.filter(matches).map((signal) => signal.id);
    expect(expected.length).toBeGreaterThan(10);
    expect(expected.length).toBeLessThan(300);
    expect(await readAll(args)).toEqual(expected);
  });

  it('company_id and company_name find one company’s news', async () => {
    const company = (signals[0] as SignalDoc).company;
    const expected = signals.filter((signal) => signal.company.id === company.id).map((signal) => signal.id);
    expect(await readAll({ company_id: company.id }, 2)).toEqual(expected);

    const part = company.name_key.slice(0, 6).toUpperCase();
    const byName = signals.filter((signal) => signal.company.name_key.includes(company.name_key.slice(0, 6)));
    expect(await readAll({ company_name: part })).toEqual(byName.map((signal) => signal.id));
  });

  it('never ends a page on a cursor that leads nowhere', async () => {
    const company = (signals[0] as SignalDoc).company;
    const count = signals.filter((signal) => signal.company.id === company.id).length;
    const page = await callOk(client, 'search_signals', { company_id: company.id, page_size: count });
    expect(page.returned).toBe(count);
    expect(page.next_cursor).toBeNull();
  });

  it('stops paging at 1,000 signals with a note', async () => {
    expect(signals.length).toBeGreaterThan(1000);
    const seen: string[] = [];
    let cursor: string | undefined;
    let page: Json;
    for (let call = 0; call < 40; call++) {
      page = await callOk(client, 'search_signals', { page_size: 25, cursor });
      seen.push(...page.signals.map((signal: Json) => signal.id));
      cursor = page.next_cursor;
    }
    expect(page.next_cursor).toBeNull();
    expect(page.notes.join(' ')).toMatch(/first 1,000 results/);
    expect(seen).toEqual(signals.slice(0, 1000).map((signal) => signal.id));
  });

  it('refuses a cursor sent with other filters, and unknown countries by position', async () => {
    const first = await callOk(client, 'search_signals', { polarity: 'positive' });
    const changed = await callError(client, 'search_signals', {
      polarity: 'neutral',
      cursor: first.next_cursor,
    });
    expect(changed).toMatchObject({ code: 'invalid_argument', details: { field: 'cursor' } });
    const unknown = await callError(client, 'search_signals', { countries: ['GB', 'FR'] });
    expect(unknown).toMatchObject({ code: 'invalid_argument', details: { field: 'countries.1' } });
  });
});
