import type { CompanyDoc, LeadDetailsDoc, LeadDoc, SignalDoc } from '../domain/documents.js';
import { countryNameOf } from '../reference/gazetteer.js';
import type { LabelCount } from './es.js';

/**
 * Result shaping: documents in, the exact objects of the output schemas out. Fields are copied one
 * by one, so nothing indexed for internal use (keys, seq, rank keys) ever reaches a client.
 */

/** What a lead card needs from `_source` (fetched with `LEAD_CARD_FIELDS`). */
export type LeadCardSource = Pick<
  LeadDoc,
  | 'id'
  | 'title'
  | 'posted_date'
  | 'work_type'
  | 'employment_type'
  | 'experience_level'
  | 'salary'
  | 'estimated_fee'
  | 'skills'
> & {
  location: Pick<LeadDoc['location'], 'display'>;
  company: Pick<LeadDoc['company'], 'id' | 'name' | 'logo_url'>;
};

export function toLeadCard(doc: LeadCardSource, enriched: boolean) {
  return {
    id: doc.id,
    title: doc.title,
    location: doc.location.display,
    posted_date: doc.posted_date,
    company: { id: doc.company.id, name: doc.company.name, logo_url: doc.company.logo_url },
    work_type: doc.work_type,
    employment_type: doc.employment_type,
    experience_level: doc.experience_level,
    salary: doc.salary
      ? {
          min: doc.salary.min,
          max: doc.salary.max,
          currency: doc.salary.currency,
          period: doc.salary.period,
          display: doc.salary.display,
        }
      : null,
    estimated_fee: doc.estimated_fee
      ? {
          min: doc.estimated_fee.min,
          max: doc.estimated_fee.max,
          currency: doc.estimated_fee.currency,
          rate_percent: doc.estimated_fee.rate_percent,
        }
      : null,
    skills: [...doc.skills],
    enriched,
  };
}

function toLeadDetails(details: LeadDetailsDoc) {
  return {
    job_links: [...details.job_links],
    experience_years: { min: details.experience_years.min, max: details.experience_years.max },
    industry: details.industry,
    applicants: details.applicants,
    job_tags: [...details.job_tags],
    company_tags: [...details.company_tags],
    company: {
      website_url: details.company.website_url,
      size: details.company.size,
      size_band: details.company.size_band,
      is_blue_chip: details.company.is_blue_chip,
      social_links: details.company.social_links.map((link) => ({ network: link.network, url: link.url })),
    },
  };
}

/**
 * The `get_lead` preview, also the `lead` of `enrich_lead`. `enrichment_cost_credits` stays
 * 1 for a closed role that is not unlocked (the field holds only 0 or 1); the notes from
 * `leadPreviewNotes` tell the assistant that such a role can no longer be enriched.
 */
export function toLeadPreview(doc: LeadDoc, enriched: boolean) {
  return {
    ...toLeadCard(doc, enriched),
    is_open: doc.is_open,
    summary: doc.summary,
    soft_skills: [...doc.soft_skills],
    about_company: doc.about_company,
    other_locations: doc.other_locations.map((other) => ({
      lead_id: other.lead_id,
      location: other.location,
    })),
    enrichment_cost_credits: enriched ? (0 as const) : (1 as const),
    details: enriched ? toLeadDetails(doc.details) : null,
  };
}

export function leadPreviewNotes(doc: Pick<LeadDoc, 'is_open'>, enriched: boolean): string[] {
  if (doc.is_open) return [];
  return [
    enriched
      ? 'This role has closed. Its details stay available because the account unlocked it earlier.'
      : 'This role has closed, so enrich_lead can no longer unlock its details. search_leads finds open roles like it.',
  ];
}

/** `get_company`'s hiring summary, as `readCompanyHiring` reads it from one search. */
export interface CompanyHiring {
  open_roles: number;
  open_roles_by_experience_level: LabelCount[];
  open_roles_by_work_type: LabelCount[];
  top_titles: LabelCount[];
  top_skills: LabelCount[];
  top_locations: LabelCount[];
  posted_last_7_days: number;
  posted_previous_7_days: number;
  recentLeads: LeadCardSource[];
}

/** The identity fields every view of a company starts with. */
function companyBasics(company: CompanyDoc) {
  return {
    id: company.id,
    name: company.name,
    logo_url: company.logo_url,
    website_url: company.website_url,
    industry: company.industry,
    sector: company.sector,
    size: company.size,
    size_band: company.size_band,
  };
}

export function toCompanyListItem(company: CompanyDoc, openRoles: number) {
  return { ...companyBasics(company), location: company.location, open_roles: openRoles };
}

export type RecentSignalSource = Pick<
  SignalDoc,
  'id' | 'category' | 'polarity' | 'title' | 'announced_on' | 'url'
>;

export function toRecentSignal(doc: RecentSignalSource) {
  return {
    id: doc.id,
    category: doc.category,
    polarity: doc.polarity,
    title: doc.title,
    announced_on: doc.announced_on,
    url: doc.url,
  };
}

/**
 * The `get_company` profile. `posted_last_7_days` / `posted_previous_7_days` go beyond the
 * spec: roles the company posted in the last 7 days and in the 7 before, open or closed.
 */
export function toCompanyProfile(
  company: CompanyDoc,
  hiring: CompanyHiring,
  unlockedLeadIds: ReadonlySet<string>,
  recentSignals: RecentSignalSource[],
) {
  return {
    ...companyBasics(company),
    headquarters: company.headquarters.display,
    founded: company.founded,
    about: company.about,
    specialties: [...company.specialties],
    is_blue_chip: company.is_blue_chip,
    office_locations: [...company.office_locations],
    open_roles: hiring.open_roles,
    open_roles_by_experience_level: hiring.open_roles_by_experience_level,
    open_roles_by_work_type: hiring.open_roles_by_work_type,
    top_titles: hiring.top_titles,
    top_skills: hiring.top_skills,
    top_locations: hiring.top_locations,
    posted_last_7_days: hiring.posted_last_7_days,
    posted_previous_7_days: hiring.posted_previous_7_days,
    recent_leads: hiring.recentLeads.map((lead) => toLeadCard(lead, unlockedLeadIds.has(lead.id))),
    recent_signals: recentSignals.map(toRecentSignal),
  };
}

export type SignalSource = Omit<SignalDoc, 'seq' | 'company'> & {
  company: Pick<SignalDoc['company'], 'id' | 'name' | 'logo_url'>;
};

export function toSignal(doc: SignalSource) {
  return {
    id: doc.id,
    company: { id: doc.company.id, name: doc.company.name, logo_url: doc.company.logo_url },
    category: doc.category,
    polarity: doc.polarity,
    title: doc.title,
    summary: doc.summary,
    url: doc.url,
    country: doc.country,
    announced_on: doc.announced_on,
  };
}

/** The English name of an ISO country code, or the code itself for a code we do not know. */
export function countryName(code: string): string {
  return countryNameOf(code);
}
