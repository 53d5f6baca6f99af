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

  /**
   * Reads every page of a search and expects exactly `expected`, in order. `expected` must need more
   * than one page, and every page but the last must be full: paging is what is under test.
   */
  async function expectPaging(args: Record<string, unknown>, pageSize: number, expected: string[]) {
    expect(expected.length).toBeGreaterThan(pageSize);
    const seen: string[] = [];
    const pages: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await callOk(client, 'search_signals', { ...args, page_size: pageSize, cursor });
      expect(page.returned).toBe(page.signals.length);
      pages.push(page.returned);
      seen.push(...page.signals.map((signal: Json) => signal.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
    expect(pages).toHaveLength(Math.ceil(expected.length / pageSize));
    expect(pages.slice(0, -1).every((returned) => returned === pageSize)).toBe(true);
    expect(seen).toEqual(expected);
  }

  /** The company with the most signals: enough for several small pages. */
  function busiestCompany(): { company: SignalDoc['company']; ids: string[] } {
    const byCompany = new Map<string, SignalDoc[]>();
    for (const signal of signals)
      byCompany.set(signal.company.id, [...(byCompany.get(signal.company.id) ?? []), signal]);
    const [busiest] = [...byCompany.values()].sort((a, b) => b.length - a.length);
    return { company: (busiest?.[0] as SignalDoc).company, ids: (busiest ?? []).map((signal) => signal.id) };
  }

  it('returns the newest signals first, with the documented fields and no quota', async () => {
    const result = await callOk(client, 'search_signals', {});
    expect(result.returned).toBe(10);
    expect(result.quota).toBeUndefined();
    expect(result.signals.map((signal: Json) => signal.id)).toEqual(signals.slice(0, 10).map((s) => s.id));
    // The page holds signals announced the same day, so the order checked above includes the seq tiebreak.
    const page = signals.slice(0, 10);
    const tied = page.filter((signal, position) => signal.announced_on === page[position + 1]?.announced_on);
    expect(tied.length).toBeGreaterThan(1);
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
    expect(expected.length).toBeLessThan(300);
    await expectPaging(args, 10, expected);
  });

  it('company_id and company_name find one company’s news', async () => {
    const { company, ids } = busiestCompany();
    await expectPaging({ company_id: company.id }, 2, ids);

    const part = company.name_key.slice(0, 6);
    const byName = signals.filter((signal) => signal.company.name_key.includes(part));
    await expectPaging(
      { company_name: part.toUpperCase() },
      2,
      byName.map((signal) => signal.id),
    );
  });

  it('never ends a page on a cursor that leads nowhere', async () => {
    const { company, ids } = busiestCompany();
    const whole = await callOk(client, 'search_signals', { company_id: company.id, page_size: ids.length });
    expect(whole.returned).toBe(ids.length);
    expect(whole.next_cursor).toBeNull();
    // One short of all of them: a cursor, and it leads to exactly the one left.
    const first = await callOk(client, 'search_signals', {
      company_id: company.id,
      page_size: ids.length - 1,
    });
    expect(first.next_cursor).toEqual(expect.any(String));
    const last = await callOk(client, 'search_signals', {
      company_id: company.id,
      page_size: ids.length - 1,
      cursor: first.next_cursor,
    });
    expect(last.signals.map((signal: Json) => signal.id)).toEqual(ids.slice(-1));
    expect(last.next_cursor).toBeNull();
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
    expect(first.next_cursor).toEqual(expect.any(String));
    const changed = await callError(client, 'search_signals', {
      polarity: 'neutral',
      cursor: first.next_cursor,
    });
    expect(changed).toMatchObject({ code: 'invalid_argument', details: { field: 'cursor' } });
    expect(changed.message).toMatch(/different search/);
    const unknown = await callError(client, 'search_signals', { countries: ['GB', 'FR'] });
    expect(unknown).toMatchObject({ code: 'invalid_argument', details: { field: 'countries.1' } });
    // A country's other name is refused too, as the contract says, and the message names its code.
    const alias = await callError(client, 'search_signals', { countries: ['IE', 'UK'] });
    expect(alias).toMatchObject({ code: 'invalid_argument', details: { field: 'countries.1' } });
    expect(alias.message).toContain('Did you mean "GB"?');
  });
});
