import {
  ALL_ROLES_FACET,
  type CellDoc,
  type CellKey,
  type CompanyRollupDoc,
  cellFilter,
  cellId,
  cellKey,
  cellSkills,
  companyDocId,
  companyFacetsOf,
  companyRollupDoc,
  countsAsOpen,
  type Dimension,
  dimensionFields,
  dimensionPart,
  forEachCell,
  identityOf,
  ROLLUP_LEAD_FIELDS,
  type RollupCompany,
  type RollupLead,
  type RollupView,
  type SalaryFigures,
  VIEWS,
} from '../feed/rollups.js';
import type { ElasticsearchClient } from '../stores/elasticsearch.js';
import {
  type BulkEntry,
  type BulkItem,
  bulkItemBytes,
  deleteItem,
  dropIndex,
  finishBulk,
  indexItem,
  liveIndex,
  lookUpDocuments,
  prepareForBulk,
  refreshIndex,
  scanDocuments,
  writeBulk,
} from '../stores/feed-indices.js';
import { countOpenRoles, readRollupMeta, searchLeadsEach, writeRollupMeta } from '../stores/rollup-index.js';
import { createGeneration, ensureIndices, publishIndices } from '../stores/search-indices.js';
import { allDone, chunks, twoAtATime } from './two-at-a-time.js';

/**
 * Keeps the roll-ups (src/feed/rollups.ts, docs/decisions/rollups.md) in step with the leads the
 * loader writes. The loader calls it from one place, its bulk writes of leads (`LeadWrites`); the
 * rest happens around a run (`withRollups`):
 *
 * - A fresh or snapshot load builds the roll-ups of its new leads index as it writes the roles, in
 *   memory, and writes them into a new roll-up index once the leads are published. If the roles
 *   counted differ from the open roles the new index holds (a record repeated in the input, written
 *   twice), the roll-ups are counted again by scanning the index.
 * - An upsert marks the roll-ups `updating` (readers then count the roles themselves), counts
 *   each role version it replaces out of its cells and companies and each version it writes in,
 *   and applies those changes to the stored counts at the end; a cell whose least or greatest
 *   salary left is counted again from the roles. Roll-ups that were not ready for the live leads
 *   index (none yet, or an upsert that stopped half-way), or changes that cannot be known exactly
 *   (a write whose outcome is unknown, a role written twice at once), are rebuilt whole by a scan.
 */

export interface LeadWrites {
  /** Before a batch of leads is written to `index`. */
  beforeLeads(index: string, items: readonly BulkEntry[]): Promise<void>;
  /** After it was: the documents Elasticsearch refused are in `failed`. */
  leadsWritten(items: readonly BulkEntry[], failed: ReadonlySet<string>): void;
}

export interface RollupReport {
  documents: number;
  seconds: number;
  /** How they were made: counted while loading, an upsert's changes applied, or by a scan of the index. */
  how: 'loaded' | 'changed' | 'scanned';
}

const HOW: Record<RollupReport['how'], string> = {
  loaded: 'counted while loading',
  changed: "the upsert's changes applied",
  scanned: 'counted by a scan of the leads index',
};

/** One line for the command's output: what the roll-ups took. */
export function rollupSummary(report: RollupReport): string {
  return `roll-ups: ${report.documents.toLocaleString('en-GB')} documents written in ${report.seconds.toFixed(1)} s (${HOW[report.how]})`;
}

interface RollupRun {
  client: ElasticsearchClient;
  prefix: string;
  mode: 'upsert' | 'snapshot' | 'fresh';
  today: string;
}

/**
 * Runs `load` (one ingest run) with its leads writes watched, then brings the roll-ups up to date.
 * A run that loads no leads (or changes nothing: a dry run) leaves them as they are.
 */
export async function withRollups<Report extends { published: boolean; seconds: number }>(
  run: RollupRun & { dryRun?: boolean | undefined },
  loadsLeads: boolean,
  load: (writes: LeadWrites | undefined) => Promise<Report>,
): Promise<Report & { rollups?: RollupReport }> {
  if (run.dryRun || !loadsLeads) return load(undefined);
  if (run.mode !== 'upsert') {
    const counts = new RollupCounts(run.today);
    const report = await load({
      beforeLeads: async () => {},
      leadsWritten: (items, failed) => {
        for (const item of items) if (!failed.has(item.id)) counts.add(item.doc as RollupLead);
      },
    });
    if (!report.published) return report;
    return withReport(report, await publishCounts(run, counts));
  }
  // An upsert into a prefix without indices yet creates them first (src/ingest/load.ts).
  await ensureIndices(run.client, run.prefix);
  const leads = (await liveIndex(run.client, run.prefix, 'leads')) as string;
  const rollups = (await liveIndex(run.client, run.prefix, 'rollups')) as string;
  const meta = await readRollupMeta(run.client, rollups);
  const wasReady = meta?.state === 'ready' && meta.leads_index === leads;
  await writeRollupMeta(run.client, rollups, { leads_index: leads, state: 'updating' });
  const changes = new RollupChanges();
  /** The stored versions of the roles being written, by id, until their write is done. */
  const replaced = new Map<string, RollupLead>();
  let report: Report | undefined;
  try {
    report = await load({
      beforeLeads: async (index, items) => {
        for (const item of items) {
          // Another batch writing the same role now: which version this one replaces is unknown.
          if (replaced.has(item.id)) changes.unsure = true;
        }
        const stored = await lookUpDocuments<RollupLead>(
          run.client,
          index,
          items.map((item) => item.id),
          ROLLUP_LEAD_FIELDS,
        );
        for (const item of items) replaced.set(item.id, stored.get(item.id) ?? NOT_STORED);
      },
      leadsWritten: (items, failed) => {
        // A refused write may still have landed (a request that timed out): not known exactly.
        if (failed.size > 0) changes.unsure = true;
        for (const item of items) {
          const before = replaced.get(item.id);
          replaced.delete(item.id);
          if (failed.has(item.id)) continue;
          if (before !== undefined && before !== NOT_STORED) changes.count(before, -1);
          changes.count(item.doc as RollupLead, 1);
        }
      },
    });
  } finally {
    // Whatever the run wrote, even when it stopped early, is counted.
    const updated =
      wasReady && !changes.unsure
        ? await applyChanges(run, leads, rollups, changes)
        : await rebuildByScan(run, leads);
    if (report) report = withReport(report, updated);
  }
  return report as Report & { rollups?: RollupReport };
}

/** The run's report with the roll-ups' own, their time added to the run's. */
function withReport<Report extends { seconds: number }>(report: Report, rollups: RollupReport): Report {
  return { ...report, seconds: report.seconds + rollups.seconds, rollups };
}

// --- Counting while loading --------------------------------------------------------------------

interface CellCount {
  key: CellKey;
  roles: number;
  salary?: Record<string, SalaryFigures>;
}

/**
 * The roll-ups of the roles added: each view's cells, and each company's counts per facet. Packed,
 * as the load's heap is capped (docs/performance.md, "Loading the feed"): each value a dimension
 * takes (a place, a title, a day) is numbered once, with the fields it gives a cell; a cell is its
 * view's and its values' numbers in a typed array, found through `CellTable`; its roles and salary
 * figures live in typed arrays too. Its identity and fields are put together only to be written.
 */
class RollupCounts {
  private readonly values = new Map<Dimension, DimensionValues>();
  private readonly cells = new CellTable();
  /** The current role's number for each dimension (-1: not yet looked up), in `DIMENSIONS` order. */
  private readonly leadValues = new Int32Array(DIMENSIONS.length);
  private readonly cellValues = new Int32Array(CELL_WIDTH);
  private roleCounts = new Int32Array(1024);
  /** Each cell's salary slot (below), -1 until a role with a salary counts in a view that keeps `salary`. */
  private salarySlots = new Int32Array(1024);
  /**
   * Each salary slot's roles with a salary (every such role has all three yearly midpoints), and
   * per currency their sum, least and greatest: the midpoints are whole numbers within the leads
   * index's `integer` fields, so only the sums need 8 bytes (52 bytes a slot, where twelve doubles
   * took 96; docs/performance.md, "Loading the feed").
   */
  private salaryRoles = new Int32Array(1024);
  private salarySums = new Float64Array(1024 * CURRENCIES);
  private salaryLeast = new Int32Array(1024 * CURRENCIES);
  private salaryGreatest = new Int32Array(1024 * CURRENCIES);
  private salaryCells = 0;
  readonly companies = new CompanyFacetCounts();
  private openRoles = 0;

  constructor(private readonly today: string) {
    for (const dim of DIMENSIONS) this.values.set(dim, new DimensionValues());
  }

  /** The roles counted as open. */
  get roles(): number {
    return this.openRoles;
  }

  add(lead: RollupLead): void {
    if (!countsAsOpen(lead, this.today)) return;
    this.openRoles++;
    this.leadValues.fill(-1);
    for (let viewNumber = 0; viewNumber < VIEWS.length; viewNumber++) {
      const view = VIEWS[viewNumber] as RollupView;
      for (const skill of cellSkills(view, lead)) {
        const values = this.cellValues;
        values[0] = viewNumber;
        for (let at = 0; at < view.dims.length; at++) {
          values[at + 1] = this.valueNumber(view.dims[at] as Dimension, lead, skill);
        }
        const cell = this.cells.find(values, view.dims.length + 1);
        if (cell >= this.roleCounts.length) {
          this.roleCounts = grown(this.roleCounts, cell + 1);
          this.salarySlots = grown(this.salarySlots, cell + 1);
        }
        // Every cell counted holds a role: none yet, a new cell.
        if (this.roleCounts[cell] === 0) this.salarySlots[cell] = -1;
        this.roleCounts[cell] = (this.roleCounts[cell] as number) + 1;
        if (view.dims.includes('salary') && lead.salary_annual) this.addSalaries(cell, lead.salary_annual);
      }
    }
    const facets = companyFacetsOf(lead);
    if (facets) this.companies.add(facets.company, facets.facets);
  }

  /** The number of the role's value of `dim` (each role's values looked up once, but for its skills). */
  private valueNumber(dim: Dimension, lead: RollupLead, skill: string | null): number {
    if (dim === 'skill') return this.dimension(dim).number(dim, lead, skill);
    const at = DIMENSION_NUMBERS[dim];
    let number = this.leadValues[at] as number;
    if (number < 0) {
      number = this.dimension(dim).number(dim, lead, null);
      this.leadValues[at] = number;
    }
    return number;
  }

  private dimension(dim: Dimension): DimensionValues {
    return this.values.get(dim) as DimensionValues;
  }

  private addSalaries(cell: number, salary: NonNullable<RollupLead['salary_annual']>): void {
    let slot = this.salarySlots[cell] as number;
    if (slot < 0) {
      slot = this.salaryCells++;
      this.salarySlots[cell] = slot;
      if (slot >= this.salaryRoles.length) {
        this.salaryRoles = grown(this.salaryRoles, slot + 1);
        this.salarySums = grown(this.salarySums, (slot + 1) * CURRENCIES);
        this.salaryLeast = grown(this.salaryLeast, (slot + 1) * CURRENCIES);
        this.salaryGreatest = grown(this.salaryGreatest, (slot + 1) * CURRENCIES);
      }
    }
    const first = this.salaryRoles[slot] === 0;
    this.salaryRoles[slot] = (this.salaryRoles[slot] as number) + 1;
    for (let index = 0; index < CURRENCIES; index++) {
      const amount = salary[`${SALARY_CURRENCIES[index] as Currency}_mid`];
      const at = slot * CURRENCIES + index;
      this.salarySums[at] = (this.salarySums[at] as number) + amount;
      if (first || amount < (this.salaryLeast[at] as number)) this.salaryLeast[at] = amount;
      if (first || amount > (this.salaryGreatest[at] as number)) this.salaryGreatest[at] = amount;
    }
  }

  /** A cell's salary figures by currency, as its document holds them; undefined for none. */
  private salaryOf(cell: number): Record<string, SalaryFigures> | undefined {
    const slot = this.salarySlots[cell] as number;
    if (slot < 0) return undefined;
    const count = this.salaryRoles[slot] as number;
    const salary: Record<string, SalaryFigures> = {};
    for (let index = 0; index < CURRENCIES; index++) {
      const at = slot * CURRENCIES + index;
      salary[SALARY_CURRENCIES[index] as Currency] = {
        count,
        sum: this.salarySums[at] as number,
        min: this.salaryLeast[at] as number,
        max: this.salaryGreatest[at] as number,
      };
    }
    return salary;
  }

  *documents(): Generator<BulkItem> {
    for (let cell = 0; cell < this.cells.size; cell++) {
      const values = this.cells.valuesOf(cell);
      const view = VIEWS[values[0] as number] as RollupView;
      const numbers = view.dims.map((dim, at) => ({
        of: this.dimension(dim),
        number: values[at + 1] as number,
      }));
      const salary = this.salaryOf(cell);
      yield cellItem(
        cellId(
          identityOf(
            view,
            numbers.map(({ of, number }) => of.part(number)),
          ),
        ),
        {
          key: cellKey(
            view,
            numbers.map(({ of, number }) => of.fields(number)),
          ),
          roles: this.roleCounts[cell] as number,
          ...(salary && { salary }),
        },
      );
    }
    yield* this.companies.documents();
  }
}

const DIMENSIONS: readonly Dimension[] = [...new Set(VIEWS.flatMap((view) => view.dims))];
const DIMENSION_NUMBERS = Object.fromEntries(DIMENSIONS.map((dim, at) => [dim, at])) as Record<
  Dimension,
  number
>;
/** A cell's numbers: its view's, then one per dimension of the view. */
const CELL_WIDTH = 1 + Math.max(...VIEWS.map((view) => view.dims.length));

/**
 * The values one dimension has taken, numbered from 0 in the order met: each with its part of a
 * cell's identity and the fields it gives the cell, kept once however many cells share it.
 */
class DimensionValues {
  private readonly numbers = new Map<string, number>();
  private readonly parts: string[] = [];
  private readonly fieldsOf: Array<Partial<CellKey>> = [];

  number(dim: Dimension, lead: RollupLead, skill: string | null): number {
    const part = dimensionPart(dim, lead, skill);
    let number = this.numbers.get(part);
    if (number === undefined) {
      number = this.parts.length;
      this.numbers.set(part, number);
      this.parts.push(part);
      this.fieldsOf.push(dimensionFields(dim, lead, skill));
    }
    return number;
  }

  part(number: number): string {
    return this.parts[number] as string;
  }

  fields(number: number): Partial<CellKey> {
    return this.fieldsOf[number] as Partial<CellKey>;
  }
}

/**
 * Cells by their numbers (`CELL_WIDTH` a cell, unused ones 0), numbered from 0 in the order met:
 * an open-addressing hash table of cell numbers over the packed numbers, a few bytes a cell where
 * a map of identity strings took about a hundred.
 */
class CellTable {
  size = 0;
  private values = new Int32Array(1024 * CELL_WIDTH);
  /** Cell number + 1 at each position, 0 where empty; at most half full. */
  private table = new Int32Array(2048);

  /** The number of the cell of `values` (its first `length` numbers), added if new. */
  find(values: Int32Array, length: number): number {
    let position = this.position(values, length);
    const found = (this.table[position] as number) - 1;
    if (found >= 0) return found;
    const cell = this.size++;
    if ((cell + 1) * CELL_WIDTH > this.values.length)
      this.values = grown(this.values, (cell + 1) * CELL_WIDTH);
    this.values.set(values.subarray(0, length), cell * CELL_WIDTH);
    this.values.fill(0, cell * CELL_WIDTH + length, (cell + 1) * CELL_WIDTH);
    if (this.size * 2 > this.table.length) {
      this.rehash();
      position = this.position(values, length);
    }
    this.table[position] = cell + 1;
    return cell;
  }

  valuesOf(cell: number): Int32Array {
    return this.values.subarray(cell * CELL_WIDTH, (cell + 1) * CELL_WIDTH);
  }

  /** Where the cell of `values` is, or the empty position it would take (linear probing). */
  private position(values: Int32Array, length: number): number {
    const mask = this.table.length - 1;
    let hash = 0x811c9dc5;
    for (let at = 0; at < CELL_WIDTH; at++)
      hash = Math.imul(hash ^ (at < length ? (values[at] as number) : 0), 0x01000193);
    for (let position = (hash ^ (hash >>> 15)) & mask; ; position = (position + 1) & mask) {
      const cell = (this.table[position] as number) - 1;
      if (cell < 0 || this.holds(cell, values, length)) return position;
    }
  }

  private holds(cell: number, values: Int32Array, length: number): boolean {
    const start = cell * CELL_WIDTH;
    for (let at = 0; at < CELL_WIDTH; at++) {
      if (this.values[start + at] !== (at < length ? values[at] : 0)) return false;
    }
    return true;
  }

  private rehash(): void {
    this.table = new Int32Array(this.table.length * 2);
    for (let cell = 0; cell < this.size; cell++) {
      this.table[this.position(this.valuesOf(cell), CELL_WIDTH)] = cell + 1;
    }
  }
}

/** The currencies a cell keeps salary figures in, each from the role's `<currency>_mid`. */
const SALARY_CURRENCIES = ['gbp', 'eur', 'usd'] as const;
/** A salary slot keeps a sum, a least and a greatest per currency, at `slot * CURRENCIES + index`. */
const CURRENCIES = SALARY_CURRENCIES.length;
type Currency = (typeof SALARY_CURRENCIES)[number];

/** Counts a role's salary midpoints into `figures`, in every currency. */
function addSalaries(
  figures: Record<string, SalaryFigures>,
  salary: NonNullable<RollupLead['salary_annual']>,
): void {
  for (const currency of SALARY_CURRENCIES) addSalary(figures, currency, salary[`${currency}_mid`]);
}

function addSalary(figures: Record<string, SalaryFigures>, currency: string, amount: number): void {
  const current = figures[currency];
  if (current === undefined) figures[currency] = { count: 1, sum: amount, min: amount, max: amount };
  else {
    current.count++;
    current.sum += amount;
    if (amount < current.min) current.min = amount;
    if (amount > current.max) current.max = amount;
  }
}

function cellItem(id: string, cell: CellCount): BulkItem {
  const doc = {
    ...cell.key,
    roles: cell.roles,
    _doc_count: cell.roles,
    ...(cell.salary && { salary_stats: cell.salary }),
  };
  return indexItem(id, JSON.stringify(doc));
}

/**
 * Every company's open roles per facet, packed for memory: about 4 bytes a (company, facet) pair
 * in one growing array, each company's pairs in a block of its own that doubles when full (tens of
 * millions of pairs at ten million roles). A pair holds the facet's number (20 bits) and its
 * count (12 bits; larger counts carry on in `large`). A full block moves to the end of the array;
 * when the array is full, the blocks are packed into a new one, leaving behind the ones they moved
 * out of (at 1M roles, 12 million slots used for 4.5 million pairs without that).
 */
export class CompanyFacetCounts {
  private readonly facetNumbers = new Map<string, number>();
  private readonly facetNames: string[] = [];
  private readonly companyNumbers = new Map<string, number>();
  private readonly names: string[] = [];
  private readonly rankKeys: string[] = [];
  private readonly bands: Array<string | null> = [];
  private agencies = new Uint8Array(1024);
  private blockStart = new Int32Array(1024);
  private blockLength = new Int32Array(1024);
  private blockSize = new Int32Array(1024);
  private pairs: Uint32Array;
  private used = 0;
  private readonly large = new Map<number, number>();

  constructor(initialPairs = 1 << 16) {
    this.pairs = new Uint32Array(initialPairs);
  }

  add(company: RollupCompany, facets: readonly string[]): void {
    const number = this.companyNumber(company);
    for (const facet of facets) this.count(number, this.facetNumber(facet));
  }

  private companyNumber(company: RollupCompany): number {
    let number = this.companyNumbers.get(company.rank_key);
    if (number !== undefined) return number;
    number = this.names.length;
    this.companyNumbers.set(company.rank_key, number);
    this.names.push(company.name);
    this.rankKeys.push(company.rank_key);
    this.bands.push(company.size_band);
    if (number >= this.agencies.length) {
      this.agencies = grown(this.agencies, number + 1);
      this.blockStart = grown(this.blockStart, number + 1);
      this.blockLength = grown(this.blockLength, number + 1);
      this.blockSize = grown(this.blockSize, number + 1);
    }
    this.agencies[number] = company.is_agency ? 1 : 0;
    return number;
  }

  private facetNumber(facet: string): number {
    let number = this.facetNumbers.get(facet);
    if (number === undefined) {
      number = this.facetNames.length;
      if (number >= FACET_LIMIT)
        throw new Error(`more than ${FACET_LIMIT} places, skills and industries to count`);
      this.facetNumbers.set(facet, number);
      this.facetNames.push(facet);
    }
    return number;
  }

  private count(company: number, facet: number): void {
    const start = this.blockStart[company] as number;
    const length = this.blockLength[company] as number;
    for (let slot = start; slot < start + length; slot++) {
      const pair = this.pairs[slot] as number;
      if (pair >>> COUNT_BITS === facet) {
        if ((pair & COUNT_MASK) < COUNT_MASK) this.pairs[slot] = pair + 1;
        else {
          const key = company * FACET_LIMIT + facet;
          this.large.set(key, (this.large.get(key) ?? COUNT_MASK) + 1);
        }
        return;
      }
    }
    if (length === this.blockSize[company]) this.growBlock(company);
    this.pairs[(this.blockStart[company] as number) + length] = ((facet << COUNT_BITS) | 1) >>> 0;
    this.blockLength[company] = length + 1;
  }

  private growBlock(company: number): void {
    const size = Math.max(8, (this.blockSize[company] as number) * 2);
    if (this.used + size > this.pairs.length) this.pack(size);
    const start = this.blockStart[company] as number;
    this.pairs.copyWithin(this.used, start, start + (this.blockLength[company] as number));
    this.blockStart[company] = this.used;
    this.blockSize[company] = size;
    this.used += size;
  }

  /** Copies every company's block into a new array, half as large again as they and `room` need. */
  private pack(room: number): void {
    let needed = room;
    for (let company = 0; company < this.names.length; company++) needed += this.blockSize[company] as number;
    const packed = new Uint32Array(Math.ceil(needed * 1.5));
    let used = 0;
    for (let company = 0; company < this.names.length; company++) {
      const start = this.blockStart[company] as number;
      packed.set(this.pairs.subarray(start, start + (this.blockLength[company] as number)), used);
      this.blockStart[company] = used;
      used += this.blockSize[company] as number;
    }
    this.pairs = packed;
    this.used = used;
  }

  *documents(): Generator<BulkItem> {
    for (let company = 0; company < this.names.length; company++) {
      const counts = new Map<string, number>();
      const start = this.blockStart[company] as number;
      for (let slot = start; slot < start + (this.blockLength[company] as number); slot++) {
        const pair = this.pairs[slot] as number;
        const facet = pair >>> COUNT_BITS;
        const count = pair & COUNT_MASK;
        counts.set(
          this.facetNames[facet] as string,
          count < COUNT_MASK ? count : (this.large.get(company * FACET_LIMIT + facet) ?? count),
        );
      }
      const rankKey = this.rankKeys[company] as string;
      const separator = rankKey.lastIndexOf('|');
      const doc = companyRollupDoc(
        {
          id: rankKey.slice(separator + 1),
          name: this.names[company] as string,
          name_key: rankKey.slice(0, separator),
          rank_key: rankKey,
          size_band: this.bands[company] as RollupCompany['size_band'],
          is_agency: this.agencies[company] === 1,
        },
        counts,
      );
      yield indexItem(companyDocId(rankKey), JSON.stringify(doc));
    }
  }
}

const COUNT_BITS = 12;
const COUNT_MASK = (1 << COUNT_BITS) - 1;
const FACET_LIMIT = 1 << (32 - COUNT_BITS);

function grown<T extends Uint8Array | Int32Array | Float64Array>(array: T, needed: number): T {
  const bigger = new (array.constructor as new (length: number) => T)(
    Math.max(needed, Math.ceil(array.length * 1.5)),
  );
  bigger.set(array);
  return bigger;
}

/** Writes the counted roll-ups into a new roll-up index and swaps it in for the leads index published. */
async function publishCounts(run: RollupRun, counts: RollupCounts): Promise<RollupReport> {
  const startedAt = performance.now();
  const leads = (await liveIndex(run.client, run.prefix, 'leads')) as string;
  const open = await countOpenRoles(run.client, leads);
  if (open !== counts.roles) return rebuildByScan(run, leads);
  const documents = await writeGeneration(run, leads, counts.documents());
  return { documents, seconds: (performance.now() - startedAt) / 1000, how: 'loaded' };
}

/** A new roll-up index holding `documents`, marked ready for `leads` and swapped in. */
async function writeGeneration(
  run: RollupRun,
  leads: string,
  documents: Iterable<BulkItem>,
): Promise<number> {
  const index = await createGeneration(run.client, run.prefix, 'rollups');
  try {
    await prepareForBulk(run.client, index);
    let written = 0;
    // Two batches at a time, each made as a request frees: two in memory, both of the cores busy.
    await twoAtATime(chunks(documents, WRITE_BATCH, bulkItemBytes, WRITE_BYTES), async (batch) => {
      const outcome = await writeBulk(run.client, index, batch);
      if (outcome.failed.length > 0) throw new Error(`roll-ups not written: ${outcome.failed[0]?.reason}`);
      written += batch.length;
    });
    await finishBulk(run.client, index, 'rollups');
    await writeRollupMeta(run.client, index, { leads_index: leads, state: 'ready' });
    await publishIndices(run.client, run.prefix, { rollups: index });
    return written;
  } catch (error) {
    await dropIndex(run.client, index);
    throw error;
  }
}

const WRITE_BATCH = 2000;
/**
 * A request's body stays under this: a large company's document is several kilobytes, and 2,000
 * of them two at a time raised the loader's peak by 30 MB (docs/performance.md, "Loading the feed").
 */
const WRITE_BYTES = 1 << 20;

/** The roll-ups of every open role of `leads`, counted by scanning it. */
async function rebuildByScan(run: RollupRun, leads: string): Promise<RollupReport> {
  const startedAt = performance.now();
  const counts = new RollupCounts(run.today);
  await refreshIndex(run.client, leads);
  for await (const page of scanDocuments<RollupLead>(run.client, leads, OPEN, ROLLUP_LEAD_FIELDS)) {
    for (const hit of page) counts.add(hit.source);
  }
  const documents = await writeGeneration(run, leads, counts.documents());
  return { documents, seconds: (performance.now() - startedAt) / 1000, how: 'scanned' };
}

const OPEN = { term: { is_open: true } };

// --- Applying an upsert's changes -------------------------------------------------------------

/** A role the leads index did not hold before it was written. */
const NOT_STORED = {} as RollupLead;

/** The roles an upsert took out of a cell and put in: their number and their salaries. */
interface CellChange {
  key: CellKey;
  roles: number;
  added?: Record<string, SalaryFigures>;
  removed?: Record<string, SalaryFigures>;
}

interface CompanyChange {
  company: RollupCompany;
  /** The company's facts come from a version written, when one was, else from the stored roll-up. */
  written: boolean;
  facets: Map<string, number>;
}

/** What an upsert changed: roles out of and into each cell and each company's facets. */
class RollupChanges {
  readonly cells = new Map<string, CellChange>();
  readonly companies = new Map<string, CompanyChange>();
  /** Set when a change cannot be known exactly: the roll-ups are then rebuilt by a scan. */
  unsure = false;

  /**
   * Counts a stored version out (-1) or a written one in (+1). A role counts while it is open in
   * the index: the run closes expired roles by writes of their own, counted here too.
   */
  count(lead: RollupLead, sign: 1 | -1): void {
    if (!lead.is_open) return;
    forEachCell(lead, (identity, key, view) => {
      let change = this.cells.get(identity);
      if (change === undefined) {
        change = { key: key(), roles: 0 };
        this.cells.set(identity, change);
      }
      change.roles += sign;
      if (view.dims.includes('salary') && lead.salary_annual) {
        const side = sign > 0 ? 'added' : 'removed';
        change[side] ??= {};
        addSalaries(change[side], lead.salary_annual);
      }
    });
    const facets = companyFacetsOf(lead);
    if (!facets) return;
    let change = this.companies.get(facets.company.rank_key);
    if (change === undefined) {
      change = { company: facets.company, written: sign > 0, facets: new Map() };
      this.companies.set(facets.company.rank_key, change);
    } else if (sign > 0) {
      change.company = facets.company;
      change.written = true;
    }
    for (const facet of facets.facets) change.facets.set(facet, (change.facets.get(facet) ?? 0) + sign);
  }
}

/**
 * Applies `changes` to the stored roll-ups of `leads`, in place, and marks them ready again. The
 * cells (with the recounts they need) and the companies are different documents, so they are
 * done side by side, each two requests at a time: Elasticsearch answers on both of its cores while
 * this process reads or writes.
 */
async function applyChanges(
  run: RollupRun,
  leads: string,
  rollups: string,
  changes: RollupChanges,
): Promise<RollupReport> {
  const startedAt = performance.now();
  let documents = 0;
  const write = async (items: BulkItem[]) => {
    if (items.length === 0) return;
    const outcome = await writeBulk(run.client, rollups, items);
    if (outcome.failed.length > 0) throw new Error(`roll-ups not written: ${outcome.failed[0]?.reason}`);
    documents += items.length;
  };
  const cells = async () => {
    const recount: Array<[string, CellKey]> = [];
    await twoAtATime(chunks([...changes.cells], READ_BATCH), async (chunk) => {
      const { items, unknown } = await changedCells(run, rollups, chunk);
      await write(items);
      recount.push(...unknown);
    });
    if (recount.length === 0) return;
    await refreshIndex(run.client, leads);
    await twoAtATime(chunks(recount, CELLS_PER_REQUEST), async (chunk) =>
      write(await recountCells(run, leads, chunk)),
    );
  };
  const companies = () =>
    twoAtATime(chunks([...changes.companies.values()], READ_BATCH), async (chunk) =>
      write(await changedCompanies(run, rollups, chunk)),
    );
  await allDone([cells(), companies()]);
  await refreshIndex(run.client, rollups);
  await writeRollupMeta(run.client, rollups, { leads_index: leads, state: 'ready' });
  return { documents, seconds: (performance.now() - startedAt) / 1000, how: 'changed' };
}

const READ_BATCH = 2000;
const CELLS_PER_REQUEST = 200;

/**
 * The stored cells with their changes applied, and the cells whose salary figures cannot be: a
 * role taken out held their least or greatest salary, which only the roles can tell again.
 */
async function changedCells(
  run: RollupRun,
  rollups: string,
  cells: ReadonlyArray<[string, CellChange]>,
): Promise<{ items: BulkItem[]; unknown: Array<[string, CellKey]> }> {
  const stored = await lookUpDocuments<CellDoc>(
    run.client,
    rollups,
    cells.map(([identity]) => cellId(identity)),
    ['roles', 'salary_stats'],
  );
  const items: BulkItem[] = [];
  const unknown: Array<[string, CellKey]> = [];
  for (const [identity, change] of cells) {
    if (change.roles === 0 && !change.added && !change.removed) continue;
    const before = stored.get(cellId(identity));
    const roles = (before?.roles ?? 0) + change.roles;
    if (roles <= 0) {
      if (before) items.push(deleteItem(cellId(identity)));
      continue;
    }
    const salary = changedSalaries(before?.salary_stats, change);
    if (salary === undefined) unknown.push([identity, change.key]);
    else
      items.push(cellItem(cellId(identity), { key: change.key, roles, ...(salary !== null && { salary }) }));
  }
  return { items, unknown };
}

/** A cell's salary figures with the change applied; null for none left, undefined when unknown. */
function changedSalaries(
  stored: Partial<Record<string, SalaryFigures>> | undefined,
  change: CellChange,
): Record<string, SalaryFigures> | null | undefined {
  const result: Record<string, SalaryFigures> = {};
  for (const currency of SALARY_CURRENCIES) {
    const before = stored?.[currency];
    const added = change.added?.[currency];
    const removed = change.removed?.[currency];
    if (removed && !extremesKnown(before, added, removed)) return undefined;
    const count = (before?.count ?? 0) + (added?.count ?? 0) - (removed?.count ?? 0);
    if (count <= 0) continue;
    result[currency] = {
      count,
      sum: (before?.sum ?? 0) + (added?.sum ?? 0) - (removed?.sum ?? 0),
      min: Math.min(before?.min ?? Number.POSITIVE_INFINITY, added?.min ?? Number.POSITIVE_INFINITY),
      max: Math.max(before?.max ?? Number.NEGATIVE_INFINITY, added?.max ?? Number.NEGATIVE_INFINITY),
    };
  }
  return Object.keys(result).length > 0 ? result : null;
}

/**
 * Whether the least and greatest salaries are known after `removed` left: each that left was not
 * the stored one, or a role added holds one at least as far out.
 */
function extremesKnown(
  before: SalaryFigures | undefined,
  added: SalaryFigures | undefined,
  removed: SalaryFigures,
): boolean {
  if (!before) return false;
  const leastKnown = removed.min > before.min || (added !== undefined && added.min <= removed.min);
  const greatestKnown = removed.max < before.max || (added !== undefined && added.max >= removed.max);
  return leastKnown && greatestKnown;
}

interface CellSearch {
  hits: { total: { value: number } };
  /** Elasticsearch's `stats` of each currency's midpoints (with an `avg` not kept). */
  aggregations: Record<Currency, SalaryFigures>;
}

/**
 * Each cell's roles (and salaries) counted again on the leads index, one search a cell sent
 * together in one `_msearch`: each search reads only its own cell's roles, where one `filters`
 * aggregation over the cells' roles tested every filter on each of them (at a million roles, 2,541
 * cells cost Elasticsearch 1.6 s of CPU against 2.7 s; docs/performance.md, "Loading the feed").
 */
async function recountCells(
  run: RollupRun,
  leads: string,
  cells: ReadonlyArray<[string, CellKey]>,
): Promise<BulkItem[]> {
  const aggs = Object.fromEntries(
    SALARY_CURRENCIES.map((currency) => [currency, { stats: { field: `salary_annual.${currency}_mid` } }]),
  );
  const answers = await searchLeadsEach<CellSearch>(
    run.client,
    leads,
    cells.map(([, key]) => ({ size: 0, track_total_hits: true, query: cellFilter(key), aggs })),
  );
  return cells.map(([identity, key], index) => {
    const answer = answers[index] as CellSearch;
    const roles = answer.hits.total.value;
    if (roles === 0) return deleteItem(cellId(identity));
    const salary = answer.aggregations.gbp.count
      ? Object.fromEntries(
          SALARY_CURRENCIES.map((currency) => {
            const { count, sum, min, max } = answer.aggregations[currency];
            return [currency, { count, sum, min, max }];
          }),
        )
      : undefined;
    return cellItem(cellId(identity), { key, roles, ...(salary && { salary }) });
  });
}

/** The stored company roll-ups with their changes applied; a company left with no role is a delete. */
async function changedCompanies(
  run: RollupRun,
  rollups: string,
  changes: readonly CompanyChange[],
): Promise<BulkItem[]> {
  const stored = await lookUpDocuments<CompanyRollupDoc>(
    run.client,
    rollups,
    changes.map((change) => companyDocId(change.company.rank_key)),
    ['company', 'counts'],
  );
  const items: BulkItem[] = [];
  for (const change of changes) {
    const id = companyDocId(change.company.rank_key);
    const before = stored.get(id);
    const counts = new Map(Object.entries(before?.counts ?? {}));
    for (const [facet, delta] of change.facets) {
      const count = (counts.get(facet) ?? 0) + delta;
      if (count > 0) counts.set(facet, count);
      else counts.delete(facet);
    }
    if ((counts.get(ALL_ROLES_FACET) ?? 0) <= 0) {
      if (before) items.push(deleteItem(id));
      continue;
    }
    const company = change.written || !before ? change.company : before.company;
    items.push(indexItem(id, JSON.stringify(companyRollupDoc(company, counts))));
  }
  return items;
}
