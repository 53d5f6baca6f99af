import { hash } from 'node:crypto';
import type { estypes } from '@elastic/elasticsearch';
import { matchKey } from '../domain/analysis.js';
import type { LeadDoc } from '../domain/documents.js';
import type { Currency } from '../domain/enums.js';

type Query = estypes.QueryDslQueryContainer;

/**
 * Roll-ups: the open roles counted ahead of time, so that a company ranking or a market insight over
 * millions of roles reads thousands of pre-counted documents instead of the roles themselves
 * (docs/decisions/rollups.md). Everything here is a pure function of lead documents, shared by the
 * loader that writes the roll-ups (src/ingest/rollups.ts) and the queries that read them
 * (src/search/rollup-plan.ts):
 *
 * - A **cell** of a view stands for every open role sharing the view's dimensions: a place, a level,
 *   a day... It keeps those fields under the leads' own field names, so the very filter clauses
 *   built for the leads index select the same roles' cells, and `_doc_count` (the number of roles)
 *   makes every bucket aggregation count roles, not cells.
 * - A **company** document holds, for one company, its number of open roles overall and for each
 *   place, skill and industry of them, written as tokens a range query counts companies by.
 */

const ROLLUP_VIEWS = [
  'titles',
  'industries',
  'skills',
  'roles',
  'places_by_day',
  'days',
  'salaries',
] as const;
export type RollupViewName = (typeof ROLLUP_VIEWS)[number];

/** What a cell can keep of its roles; each maps to lead fields of the same names. */
export type Dimension =
  | 'place'
  | 'experience_level'
  | 'work_type'
  | 'employment_type'
  | 'industry'
  | 'company_size'
  | 'agency'
  | 'posted_date'
  | 'skill'
  | 'title'
  | 'salary';

export interface RollupView {
  name: RollupViewName;
  dims: readonly Dimension[];
}

/**
 * The views, smallest first (the planner takes the first that can answer; their sizes at a million
 * roles are in docs/decisions/rollups.md). `skill` is one cell per skill of a role: a role is
 * counted once in each of its skills' cells, as a terms aggregation on the leads' multi-valued
 * `skills` counts it, so the view answers the skill grouping but not the number of roles. `salary`
 * keeps the 2% step of the annual midpoint in GBP and, per currency, the exact count, sum, least
 * and greatest midpoints of the cell's roles.
 */
export const VIEWS: readonly RollupView[] = [
  { name: 'titles', dims: ['title', 'experience_level', 'agency'] },
  { name: 'industries', dims: ['industry', 'place', 'company_size', 'agency'] },
  { name: 'skills', dims: ['skill', 'place', 'agency'] },
  {
    name: 'roles',
    dims: ['place', 'experience_level', 'work_type', 'employment_type', 'company_size', 'agency'],
  },
  { name: 'places_by_day', dims: ['posted_date', 'place', 'agency'] },
  { name: 'days', dims: ['posted_date', 'salary', 'agency'] },
  { name: 'salaries', dims: ['place', 'experience_level', 'salary', 'agency'] },
];

/** The lead fields the roll-ups are computed from: what a scan or a lookup of the leads index fetches. */
export const ROLLUP_LEAD_FIELDS = [
  'is_open',
  'expires_at',
  'posted_date',
  'location.city',
  'location.region',
  'location.country_code',
  'location.country_name',
  'location.keys',
  'company',
  'industry',
  'industry_key',
  'work_type',
  'employment_type',
  'experience_level',
  'skills',
  'skills_key',
  'title',
  'title_key',
  'title_terms',
  'salary_annual',
] as const;

export type RollupLead = Pick<
  LeadDoc,
  | 'is_open'
  | 'expires_at'
  | 'posted_date'
  | 'industry'
  | 'industry_key'
  | 'work_type'
  | 'employment_type'
  | 'experience_level'
  | 'skills'
  | 'skills_key'
  | 'title'
  | 'title_key'
  | 'title_terms'
  | 'salary_annual'
> & {
  location: Pick<LeadDoc['location'], 'city' | 'region' | 'country_code' | 'country_name' | 'keys'>;
  company: Pick<LeadDoc['company'], 'id' | 'name' | 'name_key' | 'rank_key' | 'size_band' | 'is_agency'>;
};

/**
 * What the roll-ups read of a lead document the loader writes: kept instead of the whole document
 * until Elasticsearch has answered, so that the rest of it (its texts and details) dies young.
 */
export function rollupLeadOf(doc: Omit<LeadDoc, 'seq' | 'fingerprint'>): RollupLead {
  return {
    is_open: doc.is_open,
    expires_at: doc.expires_at,
    posted_date: doc.posted_date,
    location: doc.location,
    company: doc.company,
    industry: doc.industry,
    industry_key: doc.industry_key,
    work_type: doc.work_type,
    employment_type: doc.employment_type,
    experience_level: doc.experience_level,
    skills: doc.skills,
    skills_key: doc.skills_key,
    title: doc.title,
    title_key: doc.title_key,
    title_terms: doc.title_terms,
    salary_annual: doc.salary_annual,
  };
}

/**
 * Whether a role counts as open in the roll-ups of an index being loaded: open, and not past its
 * `expires_at`, which the loader closes once the load is done (src/ingest/load.ts).
 */
export function countsAsOpen(lead: Pick<RollupLead, 'is_open' | 'expires_at'>, today: string): boolean {
  return lead.is_open && !(lead.expires_at !== null && lead.expires_at < today);
}

/**
 * Salary midpoints are kept in steps of 2%: the percentiles read from them are within a step. The
 * steps run from 1,000 to 2,000,000 a year in GBP, the first and last taking whatever lies beyond,
 * so a group's steps stay few enough for the bucket budget (docs/search-semantics.md).
 */
export const SALARY_STEP_RATIO = 1.02;
const LOG_STEP = Math.log(SALARY_STEP_RATIO);
const rawStep = (amount: number) => Math.floor(Math.log(amount) / LOG_STEP);
export const FIRST_SALARY_STEP = rawStep(1_000);
export const LAST_SALARY_STEP = rawStep(2_000_000);

/** The step of an annual amount in GBP: amounts from `stepStart(s)` up to `stepStart(s + 1)` exclusive. */
export function salaryStep(amount: number): number {
  if (amount < stepStart(FIRST_SALARY_STEP + 1)) return FIRST_SALARY_STEP;
  if (amount >= stepStart(LAST_SALARY_STEP)) return LAST_SALARY_STEP;
  let step = rawStep(amount);
  // Floating point may put an amount on a boundary one step off; the boundaries decide.
  while (stepStart(step) > amount) step--;
  while (stepStart(step + 1) <= amount) step++;
  return step;
}

/** The least whole amount of step `step`; the first step also holds everything below it. */
export function stepStart(step: number): number {
  return step <= FIRST_SALARY_STEP ? 0 : Math.ceil(SALARY_STEP_RATIO ** step - 1e-9);
}

/** The amounts of a step as a range query's bounds; the last step has no upper bound. */
export function stepRange(step: number): { gte: number; lt?: number } {
  return step >= LAST_SALARY_STEP
    ? { gte: stepStart(step) }
    : { gte: stepStart(step), lt: stepStart(step + 1) };
}

export interface SalaryFigures {
  count: number;
  sum: number;
  min: number;
  max: number;
}

/** The fields of a cell, as stored: the leads' field names for the dimensions it keeps. */
export interface CellDoc {
  view: RollupViewName;
  is_open: true;
  /** The roles it stands for; `_doc_count` holds the same number for the bucket aggregations. */
  roles: number;
  location?: RollupLead['location'];
  experience_level?: string;
  work_type?: string;
  employment_type?: string;
  industry?: string;
  industry_key?: string;
  company?: { size_band?: string | null; is_agency: boolean };
  posted_date?: string;
  skills?: string[];
  skills_key?: string[];
  title?: string;
  title_key?: string;
  title_terms?: string;
  /** The step of the annual midpoint in GBP (`salaryStep`). */
  salary_step?: number;
  salary_stats?: Partial<Record<Lowercase<Currency>, SalaryFigures>>;
}

/** A cell without its counts: what identifies it. */
export type CellKey = Omit<CellDoc, 'roles' | 'salary_stats'>;

/** What one dimension of a role gives the fields of its cell; `skill`: the cell's skill, if the view keeps one. */
export function dimensionFields(dim: Dimension, lead: RollupLead, skill: string | null): Partial<CellKey> {
  switch (dim) {
    case 'place': {
      const { city, region, country_code, country_name, keys } = lead.location;
      return { location: { city, region, country_code, country_name, keys: [...keys] } };
    }
    case 'experience_level':
      return { experience_level: lead.experience_level };
    case 'work_type':
      return { work_type: lead.work_type };
    case 'employment_type':
      return { employment_type: lead.employment_type };
    case 'industry':
      return { industry: lead.industry, industry_key: lead.industry_key };
    case 'company_size':
      return { company: { is_agency: lead.company.is_agency, size_band: lead.company.size_band } };
    case 'agency':
      return { company: { is_agency: lead.company.is_agency } };
    case 'posted_date':
      return { posted_date: lead.posted_date };
    case 'skill':
      return skill === null ? {} : { skills: [skill], skills_key: [matchKey(skill)] };
    case 'title':
      return { title: lead.title, title_key: lead.title_key, title_terms: lead.title_terms };
    case 'salary':
      return lead.salary_annual ? { salary_step: salaryStep(lead.salary_annual.gbp_mid) } : {};
  }
}

/** A cell's fields from its dimensions' (`dimensionFields`, in the view's order). */
export function cellKey(view: RollupView, fields: ReadonlyArray<Partial<CellKey>>): CellKey {
  const cell: CellKey = { view: view.name, is_open: true };
  for (const { company, ...rest } of fields) {
    Object.assign(cell, rest);
    // Two dimensions may each give a part of the company: size and agency.
    if (company) cell.company = { ...cell.company, ...company };
  }
  return cell;
}

/**
 * What tells a role's value of one dimension from another's, as a string; a cell's identity joins
 * its view's name and its dimensions' parts (`identityOf`).
 */
export function dimensionPart(dim: Dimension, lead: RollupLead, skill: string | null): string {
  switch (dim) {
    case 'place':
      // A place's keys name it whole (city, region and country), and an unplaced role has none.
      return lead.location.keys.join(',');
    case 'experience_level':
      return lead.experience_level;
    case 'work_type':
      return lead.work_type;
    case 'employment_type':
      return lead.employment_type;
    case 'industry':
      return lead.industry;
    case 'company_size':
      return lead.company.size_band ?? '';
    case 'agency':
      return lead.company.is_agency ? '1' : '0';
    case 'posted_date':
      return lead.posted_date;
    case 'skill':
      return skill ?? '';
    case 'title':
      return lead.title;
    case 'salary':
      return lead.salary_annual ? String(salaryStep(lead.salary_annual.gbp_mid)) : '';
  }
}

/**
 * What tells one cell of `view` from another: the view's name and its dimensions' parts, as one
 * string. Joined, not concatenated: a flat string, which a map keeping it holds without a rope.
 */
export function identityOf(view: RollupView, parts: readonly string[]): string {
  return [view.name, ...parts].join('\u0001');
}

const NO_SKILL = [null] as const;

/** The skill of each cell of `view` a role counts in: each distinct skill of the role where the view keeps `skill`, else none. */
export function cellSkills(view: RollupView, lead: RollupLead): Iterable<string | null> {
  return view.dims.includes('skill') ? new Set(lead.skills) : NO_SKILL;
}

/**
 * Calls `visit` with each cell a role counts in: one per view, or one per distinct skill name in
 * a view keeping `skill`. `identity` tells cells apart; `key` builds the cell's fields when first met.
 */
export function forEachCell(
  lead: RollupLead,
  visit: (identity: string, key: () => CellKey, view: RollupView) => void,
): void {
  for (const view of VIEWS) {
    for (const skill of cellSkills(view, lead)) {
      visit(
        identityOf(
          view,
          view.dims.map((dim) => dimensionPart(dim, lead, skill)),
        ),
        () =>
          cellKey(
            view,
            view.dims.map((dim) => dimensionFields(dim, lead, skill)),
          ),
        view,
      );
    }
  }
}

/** The document id of a cell: a digest of its identity. */
export function cellId(cellIdentity: string): string {
  return digest(cellIdentity);
}

function digest(text: string): string {
  return hash('sha256', text, 'base64url').slice(0, 22);
}

/**
 * The roles of a cell on the leads index: every dimension the cell keeps, matched as the cell
 * holds it. Used to count the cells an upsert touched again from the roles themselves.
 */
export function cellFilter(key: CellKey): Query {
  const filter: Query[] = [{ term: { is_open: true } }];
  const must_not: Query[] = [];
  const equals = (field: string, value: string | boolean | null | undefined) => {
    if (value === null || value === undefined) must_not.push({ exists: { field } });
    else filter.push({ term: { [field]: value } });
  };
  const view = VIEWS.find((candidate) => candidate.name === key.view) as RollupView;
  for (const dim of view.dims) {
    switch (dim) {
      case 'place': {
        const location = key.location as CellKey['location'] & object;
        const [mostSpecific] = location.keys;
        if (mostSpecific === undefined) must_not.push({ exists: { field: 'location.keys' } });
        else filter.push({ term: { 'location.keys': mostSpecific } });
        // A region's own cell leaves out the roles of its cities; a country's those of its regions.
        equals('location.city', location.city);
        equals('location.region', location.region);
        equals('location.country_code', location.country_code);
        break;
      }
      case 'experience_level':
      case 'work_type':
      case 'employment_type':
      case 'industry':
      case 'posted_date':
      case 'title':
        equals(dim, key[dim]);
        break;
      case 'company_size':
        equals('company.size_band', key.company?.size_band);
        break;
      case 'agency':
        equals('company.is_agency', key.company?.is_agency);
        break;
      case 'skill':
        equals('skills', key.skills?.[0]);
        break;
      case 'salary':
        if (key.salary_step === undefined) must_not.push({ exists: { field: 'salary_annual.gbp_mid' } });
        else {
          filter.push({ range: { 'salary_annual.gbp_mid': stepRange(key.salary_step) } });
        }
        break;
    }
  }
  return { bool: { filter, ...(must_not.length > 0 ? { must_not } : {}) } };
}

// --- Companies -------------------------------------------------------------------------------

/** The company fields a company document keeps, as on the leads. */
export type RollupCompany = RollupLead['company'] & { id: string };

/** A company's roles counted for one facet: everything (`*`), a place key, a skill key, an industry key. */
export const ALL_ROLES_FACET = '*';

export function placeFacet(key: string): string {
  return `place:${key}`;
}

export function skillFacet(key: string): string {
  return `skill:${key}`;
}

export function industryFacet(key: string): string {
  return `industry:${key}`;
}

/**
 * The facets an open role of a listed company counts for; null for a role of a company without a
 * profile (search_companies lists only companies with one).
 */
export function companyFacetsOf(lead: RollupLead): { company: RollupCompany; facets: string[] } | null {
  const { company } = lead;
  if (company.id === null) return null;
  const facets = new Set<string>([ALL_ROLES_FACET, industryFacet(lead.industry_key)]);
  for (const key of lead.location.keys) facets.add(placeFacet(key));
  for (const key of lead.skills_key) facets.add(skillFacet(key));
  return {
    company: {
      id: company.id,
      name: company.name,
      name_key: company.name_key,
      rank_key: company.rank_key,
      size_band: company.size_band,
      is_agency: company.is_agency,
    },
    facets: [...facets],
  };
}

/**
 * A company's count for a facet as one token, `<facet>=<count>`, the count zero-padded to a fixed
 * width: the tokens of one facet sort as their counts do, so "at least n roles" is one range of
 * terms (src/search/company-query.ts).
 */
const COUNT_WIDTH = 7;

export function countToken(facet: string, count: number): string {
  return `${facet}=${String(Math.min(count, 10 ** COUNT_WIDTH - 1)).padStart(COUNT_WIDTH, '0')}`;
}

/** The tokens of the companies with at least `least` roles of `facet`, as a range query's bounds. */
export function countsFrom(facet: string, least: number): { gte: string; lte: string } {
  return { gte: countToken(facet, least), lte: countToken(facet, 10 ** COUNT_WIDTH - 1) };
}

export interface CompanyRollupDoc {
  view: 'companies';
  company: RollupCompany;
  open_roles: number;
  /** Every facet's count, for reading back (not indexed). */
  counts: Record<string, number>;
  /** The counts as `countToken`s, whitespace-separated (indexed). */
  role_counts: string;
}

export function companyRollupDoc(
  company: RollupCompany,
  counts: ReadonlyMap<string, number>,
): CompanyRollupDoc {
  const tokens: string[] = [];
  const all: Record<string, number> = {};
  for (const [facet, count] of counts) {
    all[facet] = count;
    tokens.push(countToken(facet, count));
  }
  return {
    view: 'companies',
    company,
    open_roles: counts.get(ALL_ROLES_FACET) ?? 0,
    counts: all,
    role_counts: tokens.join(' '),
  };
}

export function companyDocId(rankKey: string): string {
  return `companies:${digest(rankKey)}`;
}
