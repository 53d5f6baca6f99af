import { leadMatchFields } from '../domain/analysis.js';
import type { CompanyDoc, LeadDetailsDoc, LeadDoc, LocationDoc, SignalDoc } from '../domain/documents.js';
import type { ExperienceLevel } from '../domain/enums.js';
import { foldKey } from '../domain/fold.js';
import { remembered } from '../domain/memo.js';
import {
  areaLocationDoc,
  cityNear,
  cityShortDisplay,
  locationDoc,
  placeInText,
  type ResolvedPlace,
} from '../reference/gazetteer.js';
import { annualSalary, estimatedFee, feeRatePercent, formatSalary } from '../reference/salary.js';
import { companyIdFor, leadIdFor, signalIdFor } from './ids.js';
import type { CompanyRecord, LeadRecord, RecordProblem, SignalRecord } from './records.js';

/**
 * Feed record in, indexed document out: the one place where what the service derives is
 * computed (docs/feed.md, "What the service derives"). Ingest calls it for every record, and so
 * does the seed, whose generator writes feed records. `seq` and `fingerprint` are the loader's:
 * they depend on what the index already holds.
 */

/** What a lead or a signal copies from its company's document. */
export type CompanyFacts = Pick<
  CompanyDoc,
  | 'id'
  | 'name'
  | 'name_key'
  | 'logo_url'
  | 'size_band'
  | 'is_agency'
  | 'industry'
  | 'about'
  | 'website_url'
  | 'size'
  | 'is_blue_chip'
  | 'social_links'
  | 'tags'
>;

/** The `_source` fields `CompanyFacts` is read from. */
export const COMPANY_FACT_FIELDS: ReadonlyArray<keyof CompanyFacts> = [
  'id',
  'name',
  'name_key',
  'logo_url',
  'size_band',
  'is_agency',
  'industry',
  'about',
  'website_url',
  'size',
  'is_blue_chip',
  'social_links',
  'tags',
];

export type LeadDraft = Omit<LeadDoc, 'seq' | 'fingerprint'>;
export type CompanyDraft = Omit<CompanyDoc, 'seq' | 'fingerprint'>;
export type SignalDraft = Omit<SignalDoc, 'seq' | 'fingerprint'>;

export interface Derived<T> {
  doc: T;
  /** What could be derived only in part, e.g. a place not recognised (the document is still written). */
  warnings: RecordProblem[];
}

/** Titles, skills and industries repeat a great deal: their folded keys are remembered, up to a bound. */
const fold = remembered(foldKey, 50_000);

/** The level a title states, for records that do not give one: "Senior ...", "Head of ...". */
const LEVEL_WORDS: ReadonlyArray<readonly [RegExp, ExperienceLevel]> = [
  [/\b(?:chief|cto|ceo|cio|ciso|cpo|vp|vice president|head of|director)\b/i, 'Executive'],
  [/\b(?:intern|internship|trainee|apprentice|graduate|junior|jr|entry[- ]level)\b/i, 'Entry'],
  [/\b(?:lead|principal|staff|architect|manager)\b/i, 'Lead'],
  [/\b(?:senior|sr)\b/i, 'Senior'],
];

export function levelFromTitle(title: string): ExperienceLevel {
  return LEVEL_WORDS.find(([words]) => words.test(title))?.[1] ?? 'Mid';
}

/** The usual years of experience at a level, for records that do not give them. */
const EXPERIENCE_BY_LEVEL: Readonly<Record<ExperienceLevel, LeadDetailsDoc['experience_years']>> = {
  Entry: { min: 0, max: 2 },
  Mid: { min: 2, max: 5 },
  Senior: { min: 5, max: null },
  Lead: { min: 7, max: null },
  Executive: { min: 10, max: null },
};

interface PlacedLocation {
  doc: LocationDoc;
  /** A city, region or country was recognised (else the location matches no `location` filter). */
  placed: boolean;
}

/** Places by location text: feeds repeat the same few thousand texts. */
const placeOfText = remembered((text) => placeOf({ text }), 20_000);

/**
 * The indexed location of a record's `{ text, lat, lon }`. The text names the place (any city,
 * region or country, as `placeInText` reads job-board text); coordinates, when given, are kept
 * as the point and name the city when the text does not. Without coordinates a city's centre is
 * the point (geocoding).
 */
function deriveLocation(location: {
  text?: string | undefined;
  lat?: number | undefined;
  lon?: number | undefined;
}): PlacedLocation {
  return location.lat === undefined && location.text !== undefined
    ? placeOfText(location.text)
    : placeOf(location);
}

function placeOf(location: {
  text?: string | undefined;
  lat?: number | undefined;
  lon?: number | undefined;
}): PlacedLocation {
  const geo =
    location.lat !== undefined && location.lon !== undefined
      ? { lat: location.lat, lon: location.lon }
      : undefined;
  const place: ResolvedPlace | undefined =
    location.text === undefined ? undefined : placeInText(location.text);
  if (place?.kind === 'city') return { doc: locationDoc(place.city, geo), placed: true };
  const near = geo && cityNear(geo);
  if (near && (place === undefined || near.countryCode === place.countryCode)) {
    return { doc: locationDoc(near, geo), placed: true };
  }
  const display = location.text ?? `${geo?.lat}, ${geo?.lon}`;
  return { doc: areaLocationDoc(place, display, geo ?? null), placed: place !== undefined };
}

function unplacedWarning(field: string, text: string | undefined): RecordProblem {
  return {
    field,
    reason: `${JSON.stringify(text ?? '')} is not a place we know: indexed without one, so no location filter finds it`,
  };
}

/** A company named only by a lead, with no profile record. */
function unprofiledCompany(name: string): LeadDoc['company'] {
  const nameKey = fold(name);
  return {
    id: null,
    name,
    name_key: nameKey,
    rank_key: `${nameKey}|`,
    logo_url: null,
    size_band: null,
    is_agency: false,
  };
}

function profiledCompany(company: CompanyFacts): LeadDoc['company'] {
  return {
    id: company.id,
    name: company.name,
    name_key: company.name_key,
    rank_key: `${company.name_key}|${company.id}`,
    logo_url: company.logo_url,
    size_band: company.size_band,
    is_agency: company.is_agency,
  };
}

/** Industry when neither the record nor a company profile gives one. */
export const UNSPECIFIED_INDUSTRY = 'Unspecified';

/**
 * The lead document of a record. `company` is the profile the record's `company.key` names
 * (the caller looks it up; null for a company named only by `company.name`). `today` (UTC)
 * closes a role whose `expires_at` has passed.
 */
export function deriveLead(
  record: LeadRecord,
  source: string,
  company: CompanyFacts | null,
  today: string,
): Derived<LeadDraft> {
  const location = deriveLocation(record.location);
  const warnings = location.placed ? [] : [unplacedWarning('location.text', record.location.text)];
  const companyDoc = company
    ? profiledCompany(company)
    : unprofiledCompany('name' in record.company ? record.company.name : '');
  const level = record.experience_level ?? levelFromTitle(record.title);
  const industry =
    record.industry ?? (company && !company.is_agency ? company.industry : UNSPECIFIED_INDUSTRY);
  const salary = record.salary;
  const where = location.doc.city ?? location.doc.display;
  const match = leadMatchFields({ title: record.title, skills: record.skills, industry });
  const doc: LeadDraft = {
    id: leadIdFor(source, record.source_id),
    source,
    source_id: record.source_id,
    title: record.title,
    title_key: fold(record.title),
    title_terms: match.title_terms,
    title_family: record.title_family ?? null,
    is_open: record.status === 'open' && !(record.expires_at !== undefined && record.expires_at < today),
    posted_date: record.posted_date,
    expires_at: record.expires_at ?? null,
    location: location.doc,
    company: companyDoc,
    industry,
    industry_key: match.industry_key,
    work_type: record.work_type,
    employment_type: record.employment_type,
    experience_level: level,
    skills: record.skills,
    skills_key: match.skills_key,
    soft_skills: record.soft_skills,
    salary: salary && { ...salary, display: formatSalary(salary) },
    salary_annual: salary && annualSalary(salary),
    estimated_fee: salary && estimatedFee(salary, feeRatePercent(level, record.employment_type)),
    summary:
      record.summary ??
      `${companyDoc.name} is hiring: ${record.title}, ${location.doc.display} (${record.work_type.toLowerCase()}, ${record.employment_type.toLowerCase()}).`,
    about_company:
      record.about_company ??
      company?.about ??
      `${companyDoc.name} has not published a company profile yet; this role is advertised in ${where}.`,
    other_locations: record.other_locations.map((other) => ({
      lead_id: leadIdFor(source, other.source_id),
      location: other.location,
    })),
    details: {
      job_links: record.job_links,
      experience_years: record.experience_years ?? EXPERIENCE_BY_LEVEL[level],
      industry,
      applicants: record.applicants ?? 0,
      job_tags: record.job_tags,
      company_tags: company?.tags ?? [],
      company: {
        website_url: company?.website_url ?? null,
        size: company?.size ?? null,
        size_band: company?.size_band ?? null,
        is_blue_chip: company?.is_blue_chip ?? false,
        social_links: company?.social_links ?? [],
      },
    },
  };
  return { doc, warnings };
}

/** Head counts each size band stands for, for records that give only the band. */
const SIZE_BY_BAND: Readonly<Record<CompanyDoc['size_band'], string>> = {
  startup: '1-50',
  scale_up: '51-250',
  small: '11-200',
  medium: '201-1,000',
  enterprise: '1,001+',
};

/** An office in the short form "Munich, Germany" when the place is a city we know, else as written. */
function officeDisplay(text: string): string {
  const place = placeInText(text);
  return place?.kind === 'city' ? cityShortDisplay(place.city) : text;
}

export function deriveCompany(record: CompanyRecord, source: string): Derived<CompanyDraft> {
  const headquarters = deriveLocation(record.headquarters);
  const warnings = headquarters.placed
    ? []
    : [unplacedWarning('headquarters.text', record.headquarters.text)];
  const id = companyIdFor(record.key);
  const hq = headquarters.doc;
  const hqShort =
    hq.city !== null && hq.country_name !== null ? `${hq.city}, ${hq.country_name}` : hq.display;
  const doc: CompanyDraft = {
    id,
    key: record.key,
    source,
    name: record.name,
    name_key: fold(record.name),
    logo_url: record.logo_url ?? null,
    website_url: record.website_url ?? null,
    industry: record.industry,
    industry_key: fold(record.industry),
    sector: record.sector ?? record.industry,
    size: record.size ?? SIZE_BY_BAND[record.size_band],
    size_band: record.size_band,
    headquarters: hq,
    location: hqShort,
    founded: record.founded,
    about:
      record.about ??
      `${record.name} is ${record.is_agency ? 'a recruitment agency' : `a company in ${record.industry}`} headquartered in ${hqShort}.`,
    specialties: record.specialties,
    is_blue_chip: record.is_blue_chip,
    is_agency: record.is_agency,
    office_locations: record.office_locations.map(officeDisplay),
    social_links: record.social_links,
    tags: record.tags,
  };
  return { doc, warnings };
}

export function deriveSignal(record: SignalRecord, source: string, company: CompanyFacts): SignalDraft {
  return {
    id: signalIdFor(source, record.source_id),
    source,
    source_id: record.source_id,
    company: {
      id: company.id,
      name: company.name,
      name_key: company.name_key,
      logo_url: company.logo_url,
      size_band: company.size_band,
    },
    category: record.category,
    polarity: record.polarity,
    title: record.title,
    summary: record.summary,
    url: record.url,
    country: record.country,
    announced_on: record.announced_on,
  };
}

/** What leads and signals copy from a company document. */
export function companyFacts(doc: CompanyFacts): CompanyFacts {
  const facts = {} as Record<string, unknown>;
  for (const field of COMPANY_FACT_FIELDS) facts[field] = doc[field];
  return facts as unknown as CompanyFacts;
}
