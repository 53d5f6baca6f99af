import { leadMatchFields } from '../src/domain/analysis.js';
import type { LeadDetailsDoc, LeadDoc } from '../src/domain/documents.js';
import type { EmploymentType, ExperienceLevel, WorkType } from '../src/domain/enums.js';
import { type City, cityShortDisplay, locationDoc } from '../src/reference/gazetteer.js';
import { annualSalary, estimatedFee, formatSalary, type SalaryRange } from '../src/reference/salary.js';
import {
  AGENCY_HIRING_WEIGHT,
  HIRING_WEIGHT_BY_BAND,
  INDUSTRIES,
  type Industry,
} from './catalogue/companies.js';
import {
  CITY_PAY_PREMIUM,
  COUNTRY_PAY,
  FEE_PERCENT_BY_EMPLOYMENT,
  FEE_PERCENT_BY_LEVEL,
  LEVEL_BASE_ANNUAL,
  MISSING_SALARY_SHARE,
} from './catalogue/pay.js';
import {
  DEFAULT_LEVEL_WEIGHTS,
  GENERAL_JOB_TAGS,
  LEADERSHIP_SOFT_SKILLS,
  LEVEL_PREFIXES,
  ROLE_FAMILIES,
  type RoleCore,
  type RoleFamily,
  SOFT_SKILLS,
} from './catalogue/roles.js';
import { recentDayPicker } from './dates.js';
import { brandName, type CompanyRef, type SeedOptions } from './generate-companies.js';
import { OpaqueIds } from './ids.js';
import { ANY_CITY, citiesIn } from './places.js';
import { pickWeighted, Random, WeightedPicker } from './random.js';
import { article, joinList, memoisedFold, slugify } from './text.js';

/** Share of postings by companies that have no profile yet (`company.id` null). */
const NO_PROFILE_SHARE = 0.05;
/** Share of postings advertised in several cities at once (linked through `other_locations`). */
const MULTI_CITY_SHARE = 0.06;
/** Older roles are more likely to have closed: about 10% overall. */
const CLOSED_SHARE_NEW = 0.025;
const CLOSED_SHARE_PER_YEAR = 0.18;
/** Distinct names of companies without a profile; several roles share each. */
const NO_PROFILE_COMPANIES = 150;
/** Contractors are paid more per day than the pro-rata salary of a permanent role. */
const CONTRACT_RATE_PREMIUM = 2;

const EMPLOYMENT_SHARES: ReadonlyArray<readonly [EmploymentType, number]> = [
  ['Full-time', 72],
  ['Contract', 15],
  ['Part-time', 4],
  ['Internship', 3],
  ['Temporary', 3],
  ['Freelance', 3],
];

const WORK_TYPE_SHARES: ReadonlyArray<readonly [WorkType, number]> = [
  ['Hybrid', 52],
  ['On-site', 30],
  ['Remote', 18],
];

const EXPERIENCE_YEARS: Readonly<Record<ExperienceLevel, readonly [number, number, number | null]>> = {
  // [lowest minimum, highest minimum, maximum]
  Entry: [0, 1, 2],
  Mid: [2, 3, 5],
  Senior: [4, 6, 10],
  Lead: [7, 9, null],
  Executive: [10, 12, null],
};

const familyPicker = new WeightedPicker(ROLE_FAMILIES, (family) => family.weight);
const industryPicker = new WeightedPicker(INDUSTRIES, (industry) => industry.weight);

/** Everything the cities of one posting share. */
interface Posting {
  company: LeadDoc['company'];
  ref: CompanyRef | null;
  family: RoleFamily;
  title: string;
  level: ExperienceLevel;
  employment: EmploymentType;
  workType: WorkType;
  industry: Industry;
  skills: string[];
  softSkills: string[];
  salary: SalaryRange | null;
  date: { daysAgo: number; date: string };
  isOpen: boolean;
  duty: string;
  summaryStyle: number;
  jobTags: string[];
  experienceYears: LeadDetailsDoc['experience_years'];
}

function titleFor(
  family: RoleFamily,
  core: RoleCore,
  level: ExperienceLevel,
  employment: EmploymentType,
  random: Random,
) {
  if (employment === 'Internship') return `${core.title} Intern`;
  if (level === 'Executive') return random.pick(family.executiveTitles);
  if (level === 'Mid') return core.title;
  const prefixes = level === 'Lead' ? (family.leadPrefixes ?? LEVEL_PREFIXES.Lead) : LEVEL_PREFIXES[level];
  return `${random.pick(prefixes)} ${core.title}`;
}

function roundTo(value: number, step: number): number {
  return Math.max(step, Math.round(value / step) * step);
}

function salaryPeriod(
  employment: EmploymentType,
  monthlyShare: number,
  random: Random,
): SalaryRange['period'] {
  switch (employment) {
    case 'Contract':
      return random.chance(0.85) ? 'day' : 'hour';
    case 'Freelance':
      return random.chance(0.6) ? 'day' : 'hour';
    case 'Part-time':
      return random.chance(0.7) ? 'hour' : 'year';
    case 'Temporary':
      return pickWeighted(random, [
        ['hour', 60],
        ['day', 25],
        ['week', 15],
      ]);
    case 'Internship':
      return random.chance(0.6) ? 'month' : 'year';
    case 'Full-time':
      return random.chance(monthlyShare) ? 'month' : 'year';
  }
}

/** A salary that fits the level, country, city and family, in the period postings of that kind use. */
function salaryFor(
  family: RoleFamily,
  level: ExperienceLevel,
  employment: EmploymentType,
  city: City,
  random: Random,
): SalaryRange | null {
  if (random.chance(MISSING_SALARY_SHARE)) return null;
  const pay = COUNTRY_PAY[city.countryCode] ?? { currency: 'GBP', factor: 1, monthlyShare: 0 };
  const internshipFactor = employment === 'Internship' ? 0.55 : 1;
  const annualMid =
    LEVEL_BASE_ANNUAL[level] *
    pay.factor *
    (CITY_PAY_PREMIUM[city.name] ?? 1) *
    family.payFactor *
    internshipFactor *
    random.between(0.92, 1.08);
  const low = annualMid * random.between(0.85, 0.94);
  const high = annualMid * random.between(1.06, 1.2);
  const period = salaryPeriod(employment, pay.monthlyShare, random);
  const premium = employment === 'Contract' || employment === 'Freelance' ? CONTRACT_RATE_PREMIUM : 1;
  const step = { year: annualMid < 30_000 ? 500 : 1000, month: 50, week: 10, day: 25, hour: 1 }[period];
  const perYear = { year: 1, month: 12, week: 52, day: 260, hour: 2080 }[period];
  const min = roundTo((low * premium) / perYear, step);
  const max = Math.max(min, roundTo((high * premium) / perYear, step));
  return { min, max, currency: pay.currency, period };
}

function experienceYears(level: ExperienceLevel, random: Random): LeadDetailsDoc['experience_years'] {
  const [lowest, highest, max] = EXPERIENCE_YEARS[level];
  return { min: random.int(lowest, highest), max };
}

function skillsFor(family: RoleFamily, core: RoleCore, random: Random): string[] {
  return [...new Set([...core.skills, ...random.sample(family.skillPool, random.int(2, 5))])];
}

function softSkillsFor(level: ExperienceLevel, random: Random): string[] {
  const skills = random.sample(SOFT_SKILLS, random.int(2, 3));
  if (level === 'Lead' || level === 'Executive' || (level === 'Senior' && random.chance(0.5))) {
    skills.push(...random.sample(LEADERSHIP_SOFT_SKILLS, random.int(1, 2)));
  }
  return skills;
}

const WORK_TYPE_WORDS: Readonly<Record<WorkType, string>> = {
  Remote: 'remote',
  Hybrid: 'hybrid',
  'On-site': 'on-site',
};

const SUMMARY_STYLES: ReadonlyArray<(posting: Posting, city: City) => string> = [
  (p, city) =>
    `${p.company.name} is hiring ${article(p.title)} ${p.title} in ${city.name} (${WORK_TYPE_WORDS[p.workType]}). You will ${p.duty}, working with ${joinList(p.skills.slice(0, 3))}.`,
  (p, city) => {
    const kind = `${p.employment.toLowerCase()}, ${WORK_TYPE_WORDS[p.workType]}`;
    return `As ${article(p.title)} ${p.title} at ${p.company.name} you will ${p.duty}. The team works with ${joinList(p.skills.slice(0, 4))}. This is ${article(kind)} ${kind} role based in ${city.name}.`;
  },
  (p, city) =>
    `Join ${p.company.name} in ${city.name} as ${article(p.title)} ${p.title}. You will ${p.duty}. We are looking for someone with ${p.experienceYears.min}+ years of experience and strong ${p.skills[0]} skills.`,
];

/**
 * Lead documents in index order, streamed: only the company directory and the posting
 * being written are held in memory. The same seed, `now` and directory give the same
 * documents, byte for byte.
 */
export function* generateLeads(
  count: number,
  companies: readonly CompanyRef[],
  options: SeedOptions,
): Generator<LeadDoc> {
  const random = new Random(`${options.seed}:leads`);
  const ids = new OpaqueIds('ld', options.seed);
  const days = recentDayPicker(options.now, 2.6, 0.25);
  const fold = memoisedFold();
  const companyPicker =
    companies.length > 0
      ? new WeightedPicker(companies, (ref) =>
          ref.isAgency ? AGENCY_HIRING_WEIGHT : HIRING_WEIGHT_BY_BAND[ref.sizeBand],
        )
      : undefined;
  const unprofiledNames = Array.from({ length: NO_PROFILE_COMPANIES }, (_, k) => {
    const brand = brandName(companies.length + k, options.seed);
    return `${brand} ${random.pick(industryPicker.pick(random).nameWords)}`;
  });

  const companyOf = (): { company: LeadDoc['company']; ref: CompanyRef | null } => {
    if (!companyPicker || random.chance(NO_PROFILE_SHARE)) {
      const name = random.pick(unprofiledNames);
      const nameKey = fold(name);
      return {
        company: {
          id: null,
          name,
          name_key: nameKey,
          rank_key: `${nameKey}|`,
          logo_url: null,
          size_band: null,
          is_agency: false,
        },
        ref: null,
      };
    }
    const ref = companyPicker.pick(random);
    return {
      company: {
        id: ref.id,
        name: ref.name,
        name_key: ref.nameKey,
        rank_key: ref.rankKey,
        logo_url: ref.logoUrl,
        size_band: ref.sizeBand,
        is_agency: ref.isAgency,
      },
      ref,
    };
  };

  const citiesOf = (ref: CompanyRef | null, wanted: number): City[] => {
    const offices = ref && !ref.isAgency ? ref.cities : [];
    const first =
      offices.length > 0
        ? random.chance(0.6)
          ? (offices[0] as City)
          : random.pick(offices)
        : ANY_CITY.pick(random);
    const cities = [first];
    // Several cities of one posting share a country, so that one salary (and currency) fits all.
    const officesInCountry = offices.filter(
      (city) => city !== first && city.countryCode === first.countryCode,
    );
    for (let attempt = 0; cities.length < wanted && attempt < wanted * 4; attempt++) {
      const city = officesInCountry[attempt] ?? citiesIn(first.countryCode).pick(random);
      if (!cities.includes(city)) cities.push(city);
    }
    return cities;
  };

  const postingFor = (company: LeadDoc['company'], ref: CompanyRef | null, city: City): Posting => {
    const family = familyPicker.pick(random);
    const levelWeights = family.levelWeights ?? DEFAULT_LEVEL_WEIGHTS;
    let level = pickWeighted(random, Object.entries(levelWeights) as Array<[ExperienceLevel, number]>);
    let employment = pickWeighted(random, EMPLOYMENT_SHARES);
    if (employment === 'Internship') {
      if (levelWeights.Entry > 0) level = 'Entry';
      else employment = 'Full-time';
    }
    if (level === 'Executive' && employment !== 'Contract') employment = 'Full-time';
    const core = random.pick(family.cores);
    const date = days.pick(random);
    return {
      company,
      ref,
      family,
      title: titleFor(family, core, level, employment, random),
      level,
      employment,
      workType: pickWeighted(random, WORK_TYPE_SHARES),
      industry: ref && !ref.isAgency ? ref.industry : industryPicker.pick(random),
      skills: skillsFor(family, core, random),
      softSkills: softSkillsFor(level, random),
      salary: salaryFor(family, level, employment, city, random),
      date,
      isOpen: !random.chance(CLOSED_SHARE_NEW + (CLOSED_SHARE_PER_YEAR * date.daysAgo) / 365),
      duty: random.pick(family.duties),
      summaryStyle: random.int(0, SUMMARY_STYLES.length - 1),
      jobTags: [random.pick(family.jobTags), ...random.sample(GENERAL_JOB_TAGS, random.int(1, 3))],
      experienceYears: experienceYears(level, random),
    };
  };

  const leadFor = (
    posting: Posting,
    city: City,
    index: number,
    others: LeadDoc['other_locations'],
  ): LeadDoc => {
    const { company, ref, salary } = posting;
    const id = ids.at(index);
    const titleSlug = slugify(posting.title);
    const jobLinks = [`https://www.techroles.example/jobs/${titleSlug}-${id.slice(3).toLowerCase()}`];
    if (ref?.websiteUrl) jobLinks.unshift(`https://careers.${ref.domain}/jobs/${titleSlug}`);
    const remoteBoost = posting.workType === 'Remote' ? 2 : 1;
    const feePercent = FEE_PERCENT_BY_EMPLOYMENT[posting.employment] ?? FEE_PERCENT_BY_LEVEL[posting.level];
    const match = leadMatchFields({
      title: posting.title,
      skills: posting.skills,
      industry: posting.industry.name,
    });
    return {
      id,
      seq: index + 1,
      title: posting.title,
      title_key: fold(posting.title),
      title_terms: match.title_terms,
      title_family: posting.family.name,
      is_open: posting.isOpen,
      posted_date: posting.date.date,
      location: locationDoc(city),
      company,
      industry: posting.industry.name,
      industry_key: match.industry_key,
      work_type: posting.workType,
      employment_type: posting.employment,
      experience_level: posting.level,
      skills: posting.skills,
      skills_key: match.skills_key,
      soft_skills: posting.softSkills,
      salary: salary && { ...salary, display: formatSalary(salary) },
      salary_annual: salary && annualSalary(salary),
      estimated_fee: salary && estimatedFee(salary, feePercent),
      summary: (SUMMARY_STYLES[posting.summaryStyle] as (p: Posting, c: City) => string)(posting, city),
      about_company:
        ref?.about ??
        `${company.name} has not published a company profile yet; this role is advertised in ${city.name}.`,
      other_locations: others,
      details: {
        job_links: jobLinks,
        experience_years: posting.experienceYears,
        industry: posting.industry.name,
        applicants: Math.round(
          random.between(0.2, 1.5) * (4 + Math.min(posting.date.daysAgo, 60) * 2.5) * remoteBoost,
        ),
        job_tags: posting.jobTags,
        company_tags: ref?.tags ?? [],
        company: {
          website_url: ref?.websiteUrl ?? null,
          size: ref?.size ?? null,
          size_band: ref?.sizeBand ?? null,
          is_blue_chip: ref?.isBlueChip ?? false,
          social_links: ref?.socialLinks ?? [],
        },
      },
    };
  };

  let index = 0;
  while (index < count) {
    const { company, ref } = companyOf();
    const wanted = random.chance(MULTI_CITY_SHARE) ? Math.min(random.int(2, 4), count - index) : 1;
    const cities = citiesOf(ref, wanted);
    const posting = postingFor(company, ref, cities[0] as City);
    const places = cities.map((city, offset) => ({
      lead_id: ids.at(index + offset),
      location: cityShortDisplay(city),
    }));
    for (const [offset, city] of cities.entries()) {
      yield leadFor(
        posting,
        city,
        index + offset,
        places.filter((_, other) => other !== offset),
      );
    }
    index += cities.length;
  }
}
