import type {
  CompanySizeBand,
  Currency,
  EmploymentType,
  ExperienceLevel,
  SalaryPeriod,
  SignalCategory,
  SignalPolarity,
  WorkType,
} from './enums.js';

/**
 * The documents stored in Elasticsearch, exactly as indexed (`_source`). The mappings in
 * `index-mappings/` index the fields named here; anything marked "display only" is kept in
 * `_source` but not indexed. Fields ending in `_key` hold the accent-folded, lowercased form
 * (see `foldKey`) that filters match against, or for a lead's skills and industry their `matchKey`;
 * the display value sits beside them.
 */

export interface GeoPoint {
  lat: number;
  lon: number;
}

/**
 * Where a document is. A place we know only as a region or a country (a remote role "in
 * Germany") has no city; one we could not place at all has only its display text and, when its
 * source gave them, coordinates.
 */
export interface LocationDoc {
  /** Display text, e.g. "Munich, Bavaria, Germany". */
  display: string;
  city: string | null;
  region: string | null;
  country_code: string | null;
  country_name: string | null;
  /** The keys of the city, region and country it lies in (`placeKey`), for `location` filters. */
  keys: string[];
  geo: GeoPoint | null;
}

interface SalaryDoc {
  min: number;
  max: number;
  currency: Currency;
  period: SalaryPeriod;
  display: string;
}

/** Annualised salary converted with the FX table at indexing time; integers in major units. */
export interface AnnualSalaryDoc {
  gbp_min: number;
  gbp_max: number;
  gbp_mid: number;
  eur_min: number;
  eur_max: number;
  eur_mid: number;
  usd_min: number;
  usd_max: number;
  usd_mid: number;
}

export interface EstimatedFeeDoc {
  min: number;
  max: number;
  currency: Currency;
  rate_percent: number;
}

export interface SocialLink {
  network: string;
  url: string;
}

export interface LeadDetailsDoc {
  job_links: string[];
  experience_years: { min: number; max: number | null };
  industry: string;
  applicants: number;
  job_tags: string[];
  company_tags: string[];
  company: {
    website_url: string | null;
    size: string | null;
    size_band: CompanySizeBand | null;
    is_blue_chip: boolean;
    social_links: SocialLink[];
  };
}

/** What every indexed document keeps of the feed record it was derived from (docs/feed.md). */
interface FeedOrigin {
  /** The record's source, e.g. "greenhouse:acme". */
  source: string;
  /** SHA-256 of the document without `seq` and `fingerprint`: the same record ingested again changes nothing. */
  fingerprint: string;
}

export interface LeadDoc extends FeedOrigin {
  /** `ld_` + 10 base62 characters derived from `source` and `source_id` (src/feed/ids.ts). */
  id: string;
  /** Unique, increasing with creation, kept for good: the `search_after` tiebreaker. */
  seq: number;
  source_id: string;
  title: string;
  /** Folded title, for the `title` aggregation's key. */
  title_key: string;
  /** The title's words as `analyse` reads them (src/domain/analysis.ts), what `title` filters match. */
  title_terms: string;
  title_family: string | null;
  /** False once the source closed the role (docs/feed.md, "The lifecycle"). */
  is_open: boolean;
  posted_date: string;
  /** The last day the role is open, when its source says. */
  expires_at: string | null;
  location: LocationDoc;
  company: {
    id: string | null;
    name: string;
    name_key: string;
    /** `name_key` + "|" + (`id` or ""): sorts companies by name with a unique tiebreak. */
    rank_key: string;
    logo_url: string | null;
    size_band: CompanySizeBand | null;
    is_agency: boolean;
  };
  industry: string;
  /** `matchKey` of the industry (src/domain/analysis.ts). */
  industry_key: string;
  work_type: WorkType;
  employment_type: EmploymentType;
  experience_level: ExperienceLevel;
  skills: string[];
  /** `matchKey` of each skill (src/domain/analysis.ts). */
  skills_key: string[];
  soft_skills: string[];
  salary: SalaryDoc | null;
  salary_annual: AnnualSalaryDoc | null;
  estimated_fee: EstimatedFeeDoc | null;
  summary: string;
  about_company: string;
  other_locations: Array<{ lead_id: string; location: string }>;
  /** Display only: never searchable. */
  details: LeadDetailsDoc;
}

export interface CompanyDoc extends FeedOrigin {
  /** `co_` + 10 base62 characters derived from `key`. */
  id: string;
  seq: number;
  /** The feed's key for the company, which leads and signals name it by. */
  key: string;
  name: string;
  name_key: string;
  logo_url: string | null;
  website_url: string | null;
  industry: string;
  industry_key: string;
  sector: string;
  size: string;
  size_band: CompanySizeBand;
  headquarters: LocationDoc;
  /** Display text of the headquarters, e.g. "London, United Kingdom". */
  location: string;
  founded: number;
  about: string;
  specialties: string[];
  is_blue_chip: boolean;
  is_agency: boolean;
  office_locations: string[];
  social_links: SocialLink[];
  /** Copied onto its roles' details (`company_tags`). */
  tags: string[];
}

export interface SignalDoc extends FeedOrigin {
  /** `sg_` + 10 base62 characters derived from `source` and `source_id`. */
  id: string;
  seq: number;
  source_id: string;
  company: {
    id: string;
    name: string;
    name_key: string;
    logo_url: string | null;
    size_band: CompanySizeBand;
  };
  category: SignalCategory;
  polarity: SignalPolarity;
  title: string;
  summary: string;
  url: string;
  country: string;
  announced_on: string;
}
