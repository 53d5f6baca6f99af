import type { LeadDoc } from '../domain/documents.js';
import {
  COMPANY_FACT_FIELDS,
  type CompanyFacts,
  companyFacts,
  deriveCompany,
  deriveLead,
  deriveSignal,
} from '../feed/derive.js';
import { companyIdFor, leadIdFor } from '../feed/ids.js';
import {
  type Checked,
  checkCompanyRecord,
  checkLeadRecord,
  checkSignalRecord,
  type FeedKind,
  isClosure,
  type RecordProblem,
} from '../feed/records.js';
import { rollupLeadOf } from '../feed/rollups.js';
import type { ElasticsearchClient } from '../stores/elasticsearch.js';
import {
  type BulkItem,
  bulkRequest,
  dropIndex,
  existingIds,
  finishBulk,
  highestSeq,
  indexItem,
  liveIndex,
  lookUpDocuments,
  prepareForBulk,
  refreshIndex,
  scanDocuments,
  writeBulk,
} from '../stores/feed-indices.js';
import { acquireIngestLock, IngestLockLost } from '../stores/ingest-lock.js';
import {
  createFreshIndices,
  createGeneration,
  ensureIndices,
  INDEX_KINDS,
  publishIndices,
} from '../stores/search-indices.js';
import { CompanyCache } from './company-cache.js';
import type { Progress } from './progress.js';
import { type LeadWrites, type RollupReport, withRollups } from './rollups.js';
import { type Encoded, encode, reserialise, type Serialised, serialise, withSeq } from './serialise.js';

/**
 * Loads feed records into the indices: validates each, derives its document
 * (src/feed/derive.ts), compares it with what the index holds, and writes in bulk. The one path
 * for `npm run ingest` and `npm run seed` (docs/feed.md).
 *
 * - `upsert` writes the given records into the live indices, in place.
 * - `snapshot` is a source's full listing: each kind given is built in a new generation of its
 *   index (the records, then every other document copied from the live index, this source's
 *   roles it no longer lists closed), and the aliases move to the new generations together.
 *   Until then readers see the old indices; a run that fails or is stopped leaves them serving.
 * - `fresh` (the seed) builds every kind anew from the records alone, nothing copied.
 *
 * Memory is bounded whatever the input's length: a batch being prepared, `concurrency` batches
 * being written, and a bounded cache of company facts.
 */

type IngestMode = 'upsert' | 'snapshot' | 'fresh';

/** One line of input: its number and parsed value, or why it could not be parsed. */
export type FeedLine = { line: number; value: unknown } | { line: number; error: string };
export type FeedInput = AsyncIterable<FeedLine> | Iterable<FeedLine>;

export interface Problem extends RecordProblem {
  kind: FeedKind;
  line: number;
  /** `error`: the record was refused; `warning`: written, with what is said. */
  severity: 'error' | 'warning';
}

export interface KindReport {
  kind: FeedKind;
  read: number;
  inserted: number;
  updated: number;
  unchanged: number;
  closed: number;
  reopened: number;
  rejected: number;
  warnings: number;
  /** Documents of the index copied unchanged into a snapshot's new generation. */
  copied: number;
  /** Documents Elasticsearch refused after retries. */
  failed: number;
  seconds: number;
}

export interface IngestReport {
  kinds: KindReport[];
  seconds: number;
  /** Why the run stopped before the end (too many rejects, failed writes); null when it did not. */
  aborted: string | null;
  /** Whether a snapshot's or fresh load's new indices were swapped in. */
  published: boolean;
  /** How the roll-ups were brought up to date, when leads were loaded. */
  rollups?: RollupReport;
}

export interface IngestOptions {
  client: ElasticsearchClient;
  prefix: string;
  mode: IngestMode;
  /** The source of records that name none; a snapshot's source (required in that mode). */
  source?: string | undefined;
  /** `YYYY-MM-DD` (UTC): dates after tomorrow are refused, `expires_at` before today closes. */
  today: string;
  /** Validate, derive and count, but change no live index. */
  dryRun?: boolean;
  /** More rejected records than this fails the run (a snapshot then publishes nothing). */
  maxRejects?: number | undefined;
  onProblem?: (problem: Problem) => void;
  progress?: (kind: FeedKind) => Progress | undefined;
  batchSize?: number;
  concurrency?: number;
  /** Stops the run at the next record (Ctrl-C): a snapshot then publishes nothing and drops what it built. */
  signal?: AbortSignal;
  /** Renews the ingest lock now; a run calls it just before publishing (`ingest` passes it). */
  renewLock?: () => Promise<void>;
}

const COMPANY_CACHE_SIZE = 50_000;
/** Companies first: leads and signals copy from them. */
const LOAD_ORDER: readonly FeedKind[] = ['companies', 'leads', 'signals'];

class RunAborted extends Error {}

interface Existing {
  seq: number;
  fingerprint: string;
  is_open?: boolean | undefined;
  source?: string | undefined;
  source_id?: string | undefined;
  key?: string | undefined;
}

const EXISTING_FIELDS: Record<FeedKind, string[]> = {
  leads: ['seq', 'fingerprint', 'is_open', 'source', 'source_id'],
  companies: ['seq', 'fingerprint', 'key'],
  signals: ['seq', 'fingerprint', 'source', 'source_id'],
};

function emptyReport(kind: FeedKind): KindReport {
  return {
    kind,
    read: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    closed: 0,
    reopened: 0,
    rejected: 0,
    warnings: 0,
    copied: 0,
    failed: 0,
    seconds: 0,
  };
}

/**
 * A record derived and serialised: its document is encoded as soon as it is derived, so that
 * what a batch holds while it waits on Elasticsearch is bytes, not objects (docs/performance.md).
 */
type CheckedLine = { line: number; result: Checked<unknown> };

interface Prepared {
  line: number;
  id: string;
  /** A full record's document, or undefined for a closure record. */
  doc?: {
    encoded: Encoded;
    /** A lead's `is_open`. */
    isOpen?: boolean;
    /** A lead's document, for the roll-ups (src/ingest/rollups.ts). */
    written?: object;
    /** A company's facts, for the leads and signals that follow. */
    facts?: CompanyFacts;
  };
  source: string;
  sourceId: string;
  warnings: RecordProblem[];
}

class IngestRun {
  private readonly report = new Map<FeedKind, KindReport>();
  private readonly targets: Partial<Record<FeedKind, string>> = {};
  private readonly lookups: Partial<Record<FeedKind, string | null>> = {};
  private readonly companyCache = new CompanyCache(COMPANY_CACHE_SIZE);
  private readonly inFlight = new Set<Promise<void>>();
  /** Documents written or being written by this run and not yet visible to a lookup, by id. */
  private readonly pending = new Map<string, Existing>();
  private rejected = 0;
  private abortReason: string | null = null;
  private readonly batchSize: number;
  private readonly concurrency: number;
  private readonly options: IngestOptions;

  constructor(
    options: IngestOptions,
    private readonly leadWrites?: LeadWrites,
  ) {
    this.options = options;
    this.batchSize = options.batchSize ?? 1000;
    this.concurrency = options.concurrency ?? 3;
  }

  private get client(): ElasticsearchClient {
    return this.options.client;
  }

  private get writes(): boolean {
    return !(this.options.dryRun && this.options.mode === 'upsert');
  }

  async run(inputs: Partial<Record<FeedKind, FeedInput>>): Promise<IngestReport> {
    const startedAt = performance.now();
    const kinds = LOAD_ORDER.filter((kind) => inputs[kind] !== undefined);
    await this.prepareIndices(kinds);
    let published = false;
    try {
      for (const kind of kinds) {
        const kindStartedAt = performance.now();
        const report = emptyReport(kind);
        this.report.set(kind, report);
        await this.loadKind(kind, inputs[kind] as FeedInput, report);
        if (this.options.mode === 'snapshot') await this.copyTheRest(kind, report);
        if (kind === 'leads' && this.writes) await this.closeExpired(report);
        report.seconds = (performance.now() - kindStartedAt) / 1000;
      }
      published = await this.finish(kinds);
    } catch (error) {
      if (!(error instanceof RunAborted)) {
        await this.discard(kinds);
        throw error;
      }
      await this.discard(kinds);
    }
    return {
      kinds: kinds.map((kind) => this.report.get(kind) ?? emptyReport(kind)),
      seconds: (performance.now() - startedAt) / 1000,
      aborted: this.abortReason,
      published,
    };
  }

  /** Decides where each kind is written and what its records are compared with. */
  private async prepareIndices(kinds: readonly FeedKind[]): Promise<void> {
    const { client, prefix, mode } = this.options;
    if (mode === 'fresh') {
      const fresh = await createFreshIndices(client, prefix);
      for (const kind of INDEX_KINDS) {
        const target = fresh[kind] as string;
        this.targets[kind] = target;
        this.lookups[kind] = null;
        await prepareForBulk(client, target);
      }
      return;
    }
    if (mode === 'upsert' && !this.options.dryRun) await ensureIndices(client, prefix);
    for (const kind of INDEX_KINDS) {
      const live = await liveIndex(client, prefix, kind);
      this.lookups[kind] = live;
      if (!kinds.includes(kind)) {
        this.targets[kind] = live ?? undefined;
        continue;
      }
      if (mode === 'upsert') {
        this.targets[kind] = live ?? undefined;
      } else {
        const generation = await createGeneration(client, prefix, kind);
        await prepareForBulk(client, generation);
        this.targets[kind] = generation;
      }
    }
    // New documents continue the sequence after everything the live index holds (copied with theirs).
    for (const kind of kinds) {
      const live = this.lookups[kind];
      if (live) this.nextSeq[kind] = (await highestSeq(client, live)) + 1;
    }
  }

  private readonly nextSeq: Record<FeedKind, number> = { leads: 1, companies: 1, signals: 1 };

  private takeSeq(kind: FeedKind): number {
    return this.nextSeq[kind]++;
  }

  /** Publishes a snapshot's or fresh load's new indices, or drops a dry run's. */
  private async finish(kinds: readonly FeedKind[]): Promise<boolean> {
    const { client, prefix, mode, dryRun } = this.options;
    if (mode === 'upsert') return false;
    const built = mode === 'fresh' ? INDEX_KINDS : kinds;
    const failed = [...this.report.values()].reduce((sum, report) => sum + report.failed, 0);
    if (mode === 'snapshot' && failed > 0) this.abortReason = `${failed} documents could not be written`;
    if (dryRun || this.abortReason !== null) {
      await this.discard(kinds);
      return false;
    }
    const targets: Partial<Record<FeedKind, string>> = {};
    for (const kind of built) {
      const target = this.targets[kind] as string;
      await finishBulk(client, target, kind);
      targets[kind] = target;
    }
    // The swap is where two runs would collide: publish only while this run still holds the lock.
    await this.options.renewLock?.();
    if (this.options.signal?.reason instanceof IngestLockLost) {
      this.abortReason = this.options.signal.reason.message;
      await this.discard(kinds);
      return false;
    }
    await publishIndices(client, prefix, targets);
    return true;
  }

  /** A snapshot's new generations are dropped when it does not publish; the live indices were never touched. */
  private async discard(kinds: readonly FeedKind[]): Promise<void> {
    await Promise.allSettled(this.inFlight);
    if (this.options.mode !== 'snapshot') return;
    for (const kind of kinds) {
      const target = this.targets[kind];
      if (target !== undefined && target !== this.lookups[kind]) await dropIndex(this.client, target);
    }
  }

  private problem(kind: FeedKind, line: number, problem: RecordProblem, severity: Problem['severity']): void {
    const report = this.report.get(kind) as KindReport;
    if (severity === 'error') {
      report.rejected++;
      this.rejected++;
    } else {
      report.warnings++;
    }
    this.options.onProblem?.({ kind, line, severity, ...problem });
    const { maxRejects } = this.options;
    if (severity === 'error' && maxRejects !== undefined && this.rejected > maxRejects) {
      this.abortReason = `more than ${maxRejects} records were rejected (--max-rejects)`;
      throw new RunAborted(this.abortReason);
    }
  }

  /** The record's source, or why it is refused. */
  private sourceOf(kind: FeedKind, recordSource: string | undefined): string | RecordProblem {
    const { source, mode } = this.options;
    const effective = recordSource ?? source;
    if (effective === undefined) {
      return { field: 'source', reason: 'is required: give it in the record or with --source' };
    }
    if (kind === 'leads' && mode === 'snapshot' && source !== undefined && effective !== source) {
      return { field: 'source', reason: `is "${effective}", but this is a snapshot of "${source}"` };
    }
    return effective;
  }

  private async loadKind(kind: FeedKind, input: FeedInput, report: KindReport): Promise<void> {
    const progress = this.options.progress?.(kind);
    // Each line is checked as it is read: its parsed value is garbage at once, not a batch later.
    let batch: CheckedLine[] = [];
    const flush = async () => {
      progress?.advance(batch.length);
      const full = batch;
      batch = [];
      // Waiting here rather than when the batch is sent: what the last batch made is garbage by
      // now but for what its request holds, so the waits keep no more than that alive.
      await this.freeSlot();
      await this.loadBatch(kind, full, report);
    };
    /** Takes one line; a promise only when it completes a batch, so a synchronous input runs without a tick per line. */
    const take = (entry: FeedLine): Promise<void> | undefined => {
      const { signal } = this.options;
      if (signal?.aborted) {
        this.abortReason =
          signal.reason instanceof IngestLockLost
            ? signal.reason.message
            : 'stopped before the end of the input';
        throw new RunAborted(this.abortReason);
      }
      report.read++;
      if ('error' in entry) {
        progress?.advance(1);
        this.problem(kind, entry.line, { field: '(line)', reason: entry.error }, 'error');
        return undefined;
      }
      batch.push({ line: entry.line, result: this.check(kind, entry.value) });
      return batch.length >= this.batchSize ? flush() : undefined;
    };
    try {
      if (Symbol.asyncIterator in input) {
        for await (const entry of input) await take(entry);
      } else {
        for (const entry of input) {
          const flushing = take(entry);
          if (flushing) await flushing;
        }
      }
      if (batch.length > 0) await flush();
      await this.drain();
    } finally {
      progress?.finish();
    }
  }

  private async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
    this.pending.clear();
  }

  /** The company facts of keys the cache does not hold, from the companies index (this run's writes included); null when unknown. */
  private async lookUpCompanies(keys: ReadonlySet<string>): Promise<Map<string, CompanyFacts | null>> {
    const index = this.targets.companies ?? this.lookups.companies;
    const ids = [...keys].map(companyIdFor);
    const found = index
      ? await lookUpDocuments<CompanyFacts>(this.client, index, ids, COMPANY_FACT_FIELDS)
      : new Map<string, CompanyFacts>();
    const result = new Map<string, CompanyFacts | null>();
    for (const key of keys) {
      const facts = found.get(companyIdFor(key)) ?? null;
      this.companyCache.set(key, facts);
      result.set(key, facts);
    }
    return result;
  }

  private check(kind: FeedKind, value: unknown): Checked<unknown> {
    const { today } = this.options;
    if (kind === 'leads') return checkLeadRecord(value, today);
    return kind === 'companies' ? checkCompanyRecord(value) : checkSignalRecord(value, today);
  }

  /** Derives a batch of checked records, compares it with the index, and sends what changed to be written. */
  private async loadBatch(kind: FeedKind, checked: readonly CheckedLine[], report: KindReport) {
    const outcomes = await this.deriveAll(kind, checked);
    const prepared = new Map<string, Prepared>();
    checked.forEach(({ line, result }, index) => {
      const outcome = result.ok ? (outcomes[index] as Prepared | RecordProblem) : result.problem;
      if (!('id' in outcome)) {
        this.problem(kind, line, outcome, 'error');
        return;
      }
      const earlier = prepared.get(outcome.id);
      if (earlier) {
        this.problem(
          kind,
          earlier.line,
          { field: 'source_id', reason: `superseded by line ${line}, the same record again` },
          'warning',
        );
        report.unchanged++;
      }
      prepared.set(outcome.id, outcome);
    });
    if (prepared.size === 0) return;
    const items = [...prepared.values()];
    const existing = await this.existing(kind, items);
    const closures = items.filter((item) => item.doc === undefined).map((item) => item.id);
    const closing =
      closures.length > 0 && this.lookups[kind] ? await this.fullDocuments(kind, closures) : new Map();

    const writes: BulkItem[] = [];
    for (const item of items) {
      const write = this.classify(kind, item, existing.get(item.id), closing.get(item.id), report);
      if (write) writes.push(write);
    }
    if (!this.writes) for (const write of writes) this.pending.delete(write.id);
    else if (writes.length > 0) await this.write(kind, writes, report);
  }

  /**
   * Each checked record's document, or why it is refused, by position. Records whose company the
   * cache holds are derived while the others' companies are looked up in the index.
   */
  private async deriveAll(
    kind: FeedKind,
    checked: readonly CheckedLine[],
  ): Promise<Array<Prepared | RecordProblem | undefined>> {
    const keyOf = (result: Checked<unknown>) =>
      result.ok && kind !== 'companies'
        ? (result.record as { company?: { key?: string } }).company?.key
        : undefined;
    const known = new Map<string, CompanyFacts | null>();
    const missing = new Set<string>();
    for (const { result } of checked) {
      const key = keyOf(result);
      if (key === undefined || known.has(key)) continue;
      const cached = this.companyCache.get(key);
      if (cached === undefined) missing.add(key);
      else known.set(key, cached);
    }
    const lookup = missing.size > 0 ? this.lookUpCompanies(missing) : undefined;
    // The lookup's request goes out before the known ones are derived, so the two overlap.
    if (lookup) await new Promise(setImmediate);
    const outcomes = new Array<Prepared | RecordProblem | undefined>(checked.length);
    const deriveWith = (companies: ReadonlyMap<string, CompanyFacts | null>) => {
      checked.forEach(({ line, result }, index) => {
        if (!result.ok || outcomes[index] !== undefined) return;
        const key = keyOf(result);
        const company = key === undefined ? null : companies.get(key);
        if (company !== undefined) outcomes[index] = this.derive(kind, line, result.record, company, key);
      });
    };
    deriveWith(known);
    if (lookup) deriveWith(await lookup);
    return outcomes;
  }

  /** A record's document, derived and encoded, or why it is refused; `company`: the facts its `company.key` names (null: none or unknown). */
  private derive(
    kind: FeedKind,
    line: number,
    record: unknown,
    company: CompanyFacts | null,
    companyKey: string | undefined,
  ): Prepared | RecordProblem {
    const { today } = this.options;
    const feed = record as { source?: string; source_id: string };
    const source = this.sourceOf(kind, feed.source);
    if (typeof source !== 'string') return source;
    if (kind === 'companies') {
      const { doc, warnings } = deriveCompany(record as Parameters<typeof deriveCompany>[0], source);
      const prepared = { encoded: encode(doc), facts: companyFacts(doc) };
      return { line, id: doc.id, doc: prepared, source, sourceId: doc.key, warnings };
    }
    if (companyKey !== undefined && company === null) {
      return {
        field: 'company.key',
        reason: `no company with key ${JSON.stringify(companyKey)}: load its company record first`,
      };
    }
    if (kind === 'signals') {
      const doc = deriveSignal(record as Parameters<typeof deriveSignal>[0], source, company as CompanyFacts);
      const prepared = { encoded: encode(doc) };
      return { line, id: doc.id, doc: prepared, source, sourceId: feed.source_id, warnings: [] };
    }
    const lead = record as Parameters<typeof deriveLead>[0] | { source_id: string; status: 'closed' };
    if (isClosure(lead as Parameters<typeof isClosure>[0])) {
      return { line, id: leadIdFor(source, feed.source_id), source, sourceId: feed.source_id, warnings: [] };
    }
    const { doc, warnings } = deriveLead(lead as Parameters<typeof deriveLead>[0], source, company, today);
    const prepared = { encoded: encode(doc), isOpen: doc.is_open, written: rollupLeadOf(doc) };
    return { line, id: doc.id, doc: prepared, source, sourceId: feed.source_id, warnings };
  }

  /** What the index (or this run's writes in flight) holds for each item. */
  private async existing(kind: FeedKind, items: readonly Prepared[]): Promise<Map<string, Existing>> {
    const result = new Map<string, Existing>();
    const ask: string[] = [];
    for (const item of items) {
      const pending = this.pending.get(item.id);
      if (pending) result.set(item.id, pending);
      else ask.push(item.id);
    }
    const index = this.options.mode === 'fresh' ? null : this.lookups[kind];
    if (index && ask.length > 0) {
      for (const [id, doc] of await lookUpDocuments<Existing>(
        this.client,
        index,
        ask,
        EXISTING_FIELDS[kind],
      )) {
        result.set(id, doc);
      }
    }
    return result;
  }

  private async fullDocuments(kind: FeedKind, ids: readonly string[]) {
    if (ids.some((id) => this.pending.has(id))) await this.drain();
    return lookUpDocuments<LeadDoc>(this.client, this.lookups[kind] as string, ids, true);
  }

  /** Counts the item and returns what to write, or nothing when the index needs no change. */
  private classify(
    kind: FeedKind,
    item: Prepared,
    existing: Existing | undefined,
    stored: LeadDoc | undefined,
    report: KindReport,
  ): BulkItem | undefined {
    for (const warning of item.warnings) this.problem(kind, item.line, warning, 'warning');
    const copyAnyway = this.options.mode === 'snapshot';
    if (item.doc === undefined) {
      if (!stored) {
        this.problem(
          kind,
          item.line,
          { field: 'source_id', reason: 'no role with this source and source_id to close' },
          'warning',
        );
        report.unchanged++;
        return undefined;
      }
      if (!stored.is_open) {
        report.unchanged++;
        return copyAnyway
          ? this.remember(item.id, stored, serialise(withoutOrigin(stored), stored.seq), stored)
          : undefined;
      }
      report.closed++;
      const closed = { ...stored, is_open: false };
      return this.remember(item.id, closed, reserialise(stored, { is_open: false }), closed);
    }
    const collides =
      existing !== undefined &&
      (kind === 'companies'
        ? existing.key !== item.sourceId
        : existing.source !== item.source || existing.source_id !== item.sourceId);
    if (collides) {
      this.problem(
        kind,
        item.line,
        {
          field: kind === 'companies' ? 'key' : 'source_id',
          reason: `its id ${item.id} is already another record's; change the key or source id`,
        },
        'error',
      );
      return undefined;
    }
    const seq = existing?.seq ?? this.takeSeq(kind);
    const serialised = withSeq(item.doc.encoded, seq);
    const isOpen = item.doc.isOpen;
    if (!existing) report.inserted++;
    else if (existing.fingerprint === serialised.fingerprint) {
      report.unchanged++;
      if (item.doc.facts) this.companyCache.set(item.sourceId, item.doc.facts);
      return copyAnyway
        ? this.remember(
            item.id,
            { seq, is_open: isOpen, source: item.source, source_id: item.sourceId },
            serialised,
            item.doc.written,
          )
        : undefined;
    } else {
      report.updated++;
      if (existing.is_open === true && isOpen === false) report.closed++;
      if (existing.is_open === false && isOpen === true) report.reopened++;
    }
    if (item.doc.facts) this.companyCache.set(item.sourceId, item.doc.facts);
    return this.remember(
      item.id,
      { seq, is_open: isOpen, source: item.source, source_id: item.sourceId, key: item.sourceId },
      serialised,
      item.doc.written,
    );
  }

  private remember(
    id: string,
    doc: { seq: number; is_open?: boolean | undefined; source?: string; source_id?: string; key?: string },
    serialised: Serialised,
    written?: object,
  ): BulkItem {
    // A fresh load looks nothing up, so it needs no record of what is in flight.
    if (this.options.mode !== 'fresh') this.pending.set(id, { ...doc, fingerprint: serialised.fingerprint });
    return indexItem(id, serialised.source, written);
  }

  /** Waits while `concurrency` batches are in flight. */
  private async freeSlot(): Promise<void> {
    while (this.inFlight.size >= this.concurrency) await Promise.race(this.inFlight);
  }

  /** Sends a batch to be written once fewer than `concurrency` are in flight; does not wait for it. */
  private async write(kind: FeedKind, items: BulkItem[], report: KindReport): Promise<void> {
    const target = this.targets[kind];
    if (target === undefined) throw new Error(`no ${kind} index to write to`);
    // The body is made before any wait, so that what it is made of dies young (BulkRequest).
    const bulk = bulkRequest(items);
    await this.freeSlot();
    const watched = kind === 'leads' ? this.leadWrites : undefined;
    await watched?.beforeLeads(target, bulk.entries);
    const request: Promise<void> = writeBulk(this.client, target, bulk)
      .then((outcome) => {
        watched?.leadsWritten(bulk.entries, new Set(outcome.failed.map((failure) => failure.id)));
        for (const failure of outcome.failed) {
          report.failed++;
          this.options.onProblem?.({
            kind,
            line: 0,
            severity: 'error',
            field: failure.id,
            reason: `not written: ${failure.reason}`,
          });
        }
      })
      .finally(() => {
        this.inFlight.delete(request);
        for (const entry of bulk.entries) this.pending.delete(entry.id);
      });
    this.inFlight.add(request);
  }

  /**
   * Snapshot: every document of the live index the records did not replace is copied into the
   * new generation; this source's open roles among them are closed, since its listing no longer
   * holds them.
   */
  private async copyTheRest(kind: FeedKind, report: KindReport): Promise<void> {
    const live = this.lookups[kind];
    const target = this.targets[kind];
    if (!live || !target) return;
    await this.drain();
    for await (const page of scanDocuments<{ source?: string }>(this.client, live, { match_all: {} }, [
      'source',
    ])) {
      const present = await existingIds(
        this.client,
        target,
        page.map((hit) => hit.id),
      );
      const missing = page.filter((hit) => !present.has(hit.id)).map((hit) => hit.id);
      if (missing.length === 0) continue;
      const docs = await lookUpDocuments<LeadDoc>(this.client, live, missing, true);
      const writes: BulkItem[] = [];
      for (const [id, doc] of docs) {
        if (kind === 'leads' && doc.source === this.options.source && doc.is_open) {
          report.closed++;
          const closed = { ...doc, is_open: false };
          writes.push(indexItem(id, reserialise(doc, { is_open: false }).source, closed));
        } else {
          report.copied++;
          writes.push(indexItem(id, JSON.stringify(doc), doc));
        }
      }
      await this.write(kind, writes, report);
    }
    await this.drain();
  }

  /** Open roles whose `expires_at` has passed are closed, in whatever index this run wrote. */
  private async closeExpired(report: KindReport): Promise<void> {
    const target = this.targets.leads;
    if (!target) return;
    await this.drain();
    await refreshIndex(this.client, target);
    const expired = {
      bool: { filter: [{ term: { is_open: true } }, { range: { expires_at: { lt: this.options.today } } }] },
    };
    for await (const page of scanDocuments<LeadDoc>(this.client, target, expired, true)) {
      report.closed += page.length;
      await this.write(
        'leads',
        page.map((hit) =>
          indexItem(hit.id, reserialise(hit.source, { is_open: false }).source, {
            ...hit.source,
            is_open: false,
          }),
        ),
        report,
      );
    }
    await this.drain();
  }
}

/** A stored document's fields without `seq` and `fingerprint`, in their order. */
function withoutOrigin(doc: { seq: number; fingerprint: string }): object {
  const { seq: _seq, fingerprint: _fingerprint, ...rest } = doc;
  return rest;
}

/**
 * Loads the given inputs, then brings the roll-ups up to date (src/ingest/rollups.ts); see
 * `IngestRun`. A run that writes holds the prefix's ingest lock throughout (src/stores/ingest-lock.ts)
 * and stops, as on Ctrl-C, should another run take it over.
 */
export async function ingest(
  inputs: Partial<Record<FeedKind, FeedInput>>,
  options: IngestOptions,
): Promise<IngestReport> {
  const load = (runOptions: IngestOptions) =>
    withRollups(runOptions, inputs.leads !== undefined, (leadWrites) =>
      new IngestRun(runOptions, leadWrites).run(inputs),
    );
  if (options.dryRun) return load(options);
  const lock = await acquireIngestLock(options.client, options.prefix, { mode: options.mode });
  try {
    const signal = options.signal ? AbortSignal.any([options.signal, lock.lost]) : lock.lost;
    return await load({ ...options, signal, renewLock: lock.renew });
  } finally {
    await lock.release();
  }
}
