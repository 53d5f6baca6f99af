import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { leadIdFor } from '../../src/feed/ids.js';
import { numberedRecords } from '../../src/ingest/lines.js';
import { type FeedLine, ingest as ingestRecords } from '../../src/ingest/load.js';
import {
  acquireIngestLock,
  IngestLockHeld,
  IngestLockLost,
  ingestLockIndex,
  LOCK_STALE_AFTER_MS,
} from '../../src/stores/ingest-lock.js';
import { indexNamesForVersion } from '../../src/stores/search-indices.js';
import { testBackends } from '../support/backends.js';
import { runScript, SEEDED } from '../support/seed-command.js';
import {
  callError,
  callOk,
  connectSeededClient,
  openPrivateIndices,
  type PrivateIndices,
  startSeededServer,
} from '../support/seeded-data.js';
import type { TestServer } from '../support/test-server.js';

/**
 * `npm run ingest` end to end, as an operator runs it: feed files on disk, the command as a child
 * process, and the tools through a real server reading the same indices. The lifecycle of
 * docs/feed.md: a snapshot, an upsert with changes and closures, a second snapshot that closes
 * what it no longer lists and reopens what came back; an unlock made along the way survives.
 */

const SOURCE = 'acme-ats';
const TODAY = SEEDED.now;

const company = {
  feed_version: 1,
  source: 'crm',
  key: 'acme',
  name: 'Acme Robotics',
  industry: 'Robotics',
  size_band: 'medium',
  founded: 2009,
  headquarters: { text: 'Munich, Germany' },
  tags: ['Series C'],
};

function role(sourceId: string, overrides: Record<string, unknown> = {}) {
  return {
    feed_version: 1,
    source: SOURCE,
    source_id: sourceId,
    title: `Robotics Engineer ${sourceId}`,
    company: { key: 'acme' },
    location: { text: 'Munich, Germany' },
    posted_date: '2026-10-20',
    employment_type: 'Full-time',
    work_type: 'Hybrid',
    skills: ['ROS', 'C++'],
    salary: { min: 70_000, max: 90_000, currency: 'EUR', period: 'year' },
    job_links: [`https://careers.acme.example/jobs/${sourceId}`],
    ...overrides,
  };
}

const id = (sourceId: string, source = SOURCE) => leadIdFor(source, sourceId);

describe('npm run ingest: the lifecycle of roles', () => {
  let indices: PrivateIndices;
  let server: TestServer;
  let client: Client;
  let folder: string;

  const file = (name: string, records: unknown[]) => {
    const target = path.join(folder, name);
    writeFileSync(
      target,
      records.map((record) => (typeof record === 'string' ? record : JSON.stringify(record))).join('\n'),
    );
    return target;
  };
  const ingest = (...flags: string[]) =>
    runScript(testBackends(), 'src/ingest/cli.ts', [...flags, '--prefix', indices.prefix, '--today', TODAY]);
  const openTotal = async () =>
    (await callOk(client, 'search_leads', { include_recruitment_agencies: true, page_size: 25 })).total;
  const lead = async (sourceId: string, source = SOURCE) =>
    (await callOk(client, 'get_lead', { lead_id: id(sourceId, source) })).lead;

  const liveLeadsIndex = async () =>
    Object.keys(await indices.client.indices.getAlias({ name: indices.indices.leads }))[0] as string;
  /** The alias still on `live`, no other generation left behind, and the same open roles served. */
  const expectServing = async (live: string, openBefore: number) => {
    expect(await liveLeadsIndex()).toBe(live);
    const generations = await indices.client.indices.resolveIndex({ name: `${indices.indices.leads}-*` });
    expect(generations.indices.map((index) => index.name)).toEqual([live]);
    expect(await openTotal()).toBe(openBefore);
  };

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'hiring-leads-ingest-'));
    indices = await openPrivateIndices('ingest');
    server = await startSeededServer({ INDEX_PREFIX: indices.prefix });
    ({ client } = await connectSeededClient(server));
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
    await indices?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('loads a first snapshot and serves it', async () => {
    const result = await ingest(
      '--companies',
      file('companies.ndjson', [company]),
      '--leads',
      file(
        'snapshot-1.ndjson',
        ['A', 'B', 'C', 'D', 'E'].map((sourceId) => role(sourceId)),
      ),
      '--mode',
      'snapshot',
      '--source',
      SOURCE,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/leads\s+5\s+5\s+0\s+0\s+0/);
    expect(result.stdout).toMatch(/the new indices are live/);
    expect(await openTotal()).toBe(5);
    expect(await lead('A')).toMatchObject({
      is_open: true,
      location: 'Munich, Bavaria, Germany',
      company: { name: 'Acme Robotics' },
      salary: { display: '€70,000–€90,000 a year' },
    });
  });

  let unlockedBeforehand = '';

  it('an unlock made now survives every later load', async () => {
    const enriched = await callOk(client, 'enrich_lead', { lead_id: id('A') });
    expect(enriched).toMatchObject({ charged_credits: 1, lead: { details: { company_tags: ['Series C'] } } });
    unlockedBeforehand = id('A');
  });

  it('applies an upsert: changes, closures, an expired role, and another source', async () => {
    const result = await ingest(
      '--leads',
      file('upsert.ndjson', [
        role('B', { title: 'Senior Robotics Engineer B' }),
        { feed_version: 1, source: SOURCE, source_id: 'C', status: 'closed' },
        role('D', { expires_at: '2026-10-31' }),
        role('F'),
        role('X', { source: 'crm', company: { name: 'Partner GmbH' } }),
        role('A'),
      ]),
    );
    expect(result.code, result.stderr).toBe(0);
    // read 6: F and X inserted; B and D updated (D closed by its expiry), C closed; A unchanged.
    expect(result.stdout).toMatch(/leads\s+6\s+2\s+2\s+1\s+2/);
    expect(await openTotal()).toBe(5); // A, B, E, F, X
    expect((await lead('B')).title).toBe('Senior Robotics Engineer B');

    const closed = await callOk(client, 'get_lead', { lead_id: id('C') });
    expect(closed.lead).toMatchObject({ is_open: false, details: null });
    expect(closed.notes.join(' ')).toMatch(/closed/);
    expect(await callError(client, 'enrich_lead', { lead_id: id('D') })).toMatchObject({
      code: 'invalid_argument',
      details: { reason: 'role_closed' },
    });
  });

  it('a second snapshot closes what it no longer lists, reopens what came back, keeps other sources', async () => {
    const before = await liveLeadsIndex();
    const result = await ingest(
      '--leads',
      file('snapshot-2.ndjson', [role('A'), role('C'), role('F')]),
      '--mode',
      'snapshot',
      '--source',
      SOURCE,
    );
    expect(result.code, result.stderr).toBe(0);
    // A, F unchanged; C reopened (updated); B and E closed; D stays closed; X (crm) copied.
    expect(result.stdout).toMatch(/leads\s+3\s+0\s+1\s+2\s+2\s+1\s+2/);
    expect(await openTotal()).toBe(4); // A, C, F, X
    expect((await lead('C')).is_open).toBe(true);
    expect((await lead('E')).is_open).toBe(false);
    expect((await lead('X', 'crm')).is_open).toBe(true);
    expect(await callError(client, 'enrich_lead', { lead_id: id('E') })).toMatchObject({
      code: 'invalid_argument',
      details: { reason: 'role_closed' },
    });

    const unlocked = await callOk(client, 'get_lead', { lead_id: unlockedBeforehand });
    expect(unlocked.lead).toMatchObject({
      enriched: true,
      enrichment_cost_credits: 0,
      details: { job_links: expect.any(Array) },
    });
    expect(await callOk(client, 'enrich_lead', { lead_id: unlockedBeforehand })).toMatchObject({
      already_enriched: true,
      charged_credits: 0,
    });

    const after = await liveLeadsIndex();
    expect(after).not.toBe(before);
    expect(after.startsWith(`${indexNamesForVersion(indices.prefix).leads}-g`)).toBe(true);
    expect(await indices.client.indices.exists({ index: before })).toBe(false);
  });

  it('reports each rejected record with its line, field and reason, and loads the rest', async () => {
    const rejectsFile = path.join(folder, 'rejects.ndjson');
    const result = await ingest(
      '--leads',
      file('bad.ndjson', [
        role('G'),
        '{"feed_version": 1, "source_id": ',
        role('H', { company: { key: 'nobody' } }),
        role('I', { salary: { min: 90_000, max: 80_000, currency: 'EUR', period: 'year' } }),
        role('J', { salary: { min: 9_000, max: 10_000, currency: 'CHF', period: 'month' } }),
        role('K', { posted_date: '2027-01-15' }),
        role('L', { title: 'x'.repeat(270) }),
        role('M', { location: { text: 'Somewhere over the rainbow' } }),
      ]),
      '--rejects',
      rejectsFile,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/leads\s+8\s+2\s+0\s+0\s+0\s+0\s+0\s+6\s+1/);
    for (const expected of [
      /leads line 2: \(line\): not JSON/,
      /leads line 3: company\.key: no company with key "nobody"/,
      /leads line 4: salary\.min: min is above max/,
      /leads line 5: salary\.currency: unknown currency "CHF"/,
      /leads line 6: posted_date: 2027-01-15 is in the future/,
      /leads line 7: title: must be at most 200 characters \(got 270\)/,
      /warning: leads line 8: location\.text: "Somewhere over the rainbow" is not a place we know/,
    ]) {
      expect(result.stderr).toMatch(expected);
    }
    const rejects = readFileSync(rejectsFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(rejects.map((entry) => [entry.line, entry.field, entry.severity])).toEqual([
      [2, '(line)', 'error'],
      [3, 'company.key', 'error'],
      [4, 'salary.min', 'error'],
      [5, 'salary.currency', 'error'],
      [6, 'posted_date', 'error'],
      [7, 'title', 'error'],
      [8, 'location.text', 'warning'],
    ]);
    expect((await lead('G')).is_open).toBe(true);
    expect((await lead('M')).location).toBe('Somewhere over the rainbow');
  });

  it('--max-rejects fails a snapshot and leaves the live index as it was', async () => {
    const live = await liveLeadsIndex();
    const openBefore = await openTotal();
    const result = await ingest(
      '--leads',
      file('bad-snapshot.ndjson', [role('A'), '{not json', '{neither', '[]']),
      '--mode',
      'snapshot',
      '--source',
      SOURCE,
      '--max-rejects',
      '2',
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/more than 2 records were rejected.*the live indices are unchanged/);
    await expectServing(live, openBefore);
  });

  it('a snapshot stopped half-way (Ctrl-C) drops what it built and leaves the live index serving', async () => {
    const live = await liveLeadsIndex();
    const openBefore = await openTotal();
    const stop = new AbortController();
    function* manyRoles() {
      for (let index = 0; index < 3000; index++) {
        if (index === 1500) stop.abort();
        yield role(`bulk-${index}`);
      }
    }
    const result = await ingestRecords(
      { leads: numberedRecords(manyRoles()) },
      {
        client: indices.client,
        prefix: indices.prefix,
        mode: 'snapshot',
        source: SOURCE,
        today: TODAY,
        signal: stop.signal,
      },
    );
    expect(result).toMatchObject({ aborted: 'stopped before the end of the input', published: false });
    expect(result.kinds[0]?.inserted).toBeGreaterThanOrEqual(1000);
    await expectServing(live, openBefore);
  });

  it('refuses a second writing run into the prefix while one holds the lock, and names the holder', async () => {
    const held = await acquireIngestLock(indices.client, indices.prefix, { mode: 'snapshot' });
    try {
      const refused = await ingest('--leads', file('locked.ndjson', [role('L')]));
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        /another run is writing to prefix "[^"]+": snapshot by process \d+ on .+, started .+, last heard from \d+ s ago/,
      );
      expect(await callError(client, 'get_lead', { lead_id: id('L') })).toMatchObject({ code: 'not_found' });
      // A dry run changes nothing and needs no lock.
      expect((await ingest('--leads', file('locked.ndjson', [role('L')]), '--dry-run')).code).toBe(0);
    } finally {
      await held.release();
    }
    expect((await ingest('--leads', file('locked.ndjson', [role('L')]))).code).toBe(0);
    expect((await lead('L')).is_open).toBe(true);
  });

  it('takes over a lock its run stopped renewing; the silent run then learns it lost it and keeps its hands off', async () => {
    const silent = await acquireIngestLock(indices.client, indices.prefix, { mode: 'upsert' });
    await expect(acquireIngestLock(indices.client, indices.prefix, { mode: 'upsert' })).rejects.toThrow(
      IngestLockHeld,
    );
    const later = () => Date.now() + LOCK_STALE_AFTER_MS + 1000;
    const taker = await acquireIngestLock(indices.client, indices.prefix, { mode: 'snapshot', now: later });
    await silent.renew();
    expect(silent.lost.reason).toBeInstanceOf(IngestLockLost);
    await silent.release();
    // The silent run's release left the taker's lock in place.
    await expect(acquireIngestLock(indices.client, indices.prefix, { mode: 'upsert' })).rejects.toThrow(
      /snapshot by process/,
    );
    await taker.release();
    await (await acquireIngestLock(indices.client, indices.prefix, { mode: 'upsert' })).release();
  });

  it('keeps its lock when the client resends a request whose answer was lost (taking, renewing, releasing)', async () => {
    // Each write reaches Elasticsearch twice, as when the client retries after a timeout: the
    // second answers 409 against the lock's own first write.
    const twice =
      <Params, Answer>(write: (params: Params) => Promise<Answer>) =>
      async (params: Params) => {
        await write(params);
        return write(params);
      };
    const { client: es } = indices;
    const resending = new Proxy(es, {
      get: (target, property, receiver) => {
        if (property === 'create') return twice(es.create.bind(es));
        if (property === 'index') return twice(es.index.bind(es));
        if (property === 'delete') return twice(es.delete.bind(es));
        return Reflect.get(target, property, receiver);
      },
    });
    const held = await acquireIngestLock(resending, indices.prefix, { mode: 'upsert' });
    await held.renew();
    expect(held.lost.aborted).toBe(false);
    await held.release();
    // Released: gone, not left to go stale.
    await expect(es.exists({ index: ingestLockIndex(indices.prefix), id: 'run' })).resolves.toBe(false);
  });

  it('a snapshot whose lock is taken over stops and publishes nothing', async () => {
    const live = await liveLeadsIndex();
    const openBefore = await openTotal();
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const takeOver = async () => {
        const stale = {
          run: 'another',
          pid: 1,
          host: 'elsewhere',
          mode: 'upsert',
          started_at: '',
          renewed_at: '',
        };
        await indices.client.index({ index: ingestLockIndex(indices.prefix), id: 'run', document: stale });
        await vi.advanceTimersByTimeAsync(15_000);
      };
      async function* manyRoles(): AsyncGenerator<FeedLine> {
        for (let line = 1; line <= 3000; line++) {
          if (line === 1500) await takeOver();
          yield { line, value: role(`taken-${line}`) };
        }
      }
      const result = await ingestRecords(
        { leads: manyRoles() },
        { client: indices.client, prefix: indices.prefix, mode: 'snapshot', source: SOURCE, today: TODAY },
      );
      expect(result).toMatchObject({
        aborted: expect.stringMatching(/^another run took over the ingest lock of prefix/),
        published: false,
      });
    } finally {
      vi.useRealTimers();
      await indices.client.delete({ index: ingestLockIndex(indices.prefix), id: 'run' });
    }
    await expectServing(live, openBefore);
  });

  it('refuses a bad command line with the usage', async () => {
    const result = await ingest('--mode', 'snapshot', '--leads', file('empty.ndjson', []));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/a snapshot needs --source/);
    expect(await callError(client, 'get_lead', { lead_id: id('nobody') })).toMatchObject({
      code: 'not_found',
    });
  });
});
