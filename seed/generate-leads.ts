import type { LeadDetailsDoc } from '../src/domain/documents.js';
import type { EmploymentType, ExperienceLevel, WorkType } from '../src/domain/enums.js';
import { leadIdFor } from '../src/feed/ids.js';
import { FEED_VERSION, type LeadRecordInput } from '../src/feed/records.js';
import { type City, cityShortDisplay } from '../src/reference/gazetteer.js';
import type { SalaryRange } from '../src/reference/salary.js';
import {
  AGENCY_HIRING_WEIGHT,
  HIRING_WEIGHT_BY_BAND,
  INDUSTRIES,
  type Industry,
} from './catalogue/companies.js';
import { CITY_PAY_PREMIUM, COUNTRY_PAY, LEVEL_BASE_ANNUAL, MISSING_SALARY_SHARE } from './catalogue/pay.js';
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
import { brandName, type CompanyRef, DEMO_SOURCE, type SeedOptions } from './generate-companies.js';
import { ANY_CITY, citiesIn } from './places.js';
import { pickWeighted, Random, WeightedPicker } from './random.js';
import { article, joinList, slugify } from './text.js';

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

/** The company of a posting: a profile the record names by key, or a name alone. */
interface PostingCompany {
  name: string;
  ref: CompanyRef | null;
}

/** Everything the cities of one posting share. */
interface Posting {
  company: PostingCompany;
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

/** The source id of the `index`-th generated role: the seed keeps roles of different seeds apart. */
function demoLeadSourceId(seed: number, index: number): string {
  return `${seed}-${index + 1}`;
}

/**
 * Lead feed records in index order, streamed: only the company directory and the posting
 * being written are held in memory. The same seed, `now` and directory give the same
 * records, byte for byte.
 */
export function* generateLeads(
  count: number,
  companies: readonly CompanyRef[],
  options: SeedOptions,
): Generator<LeadRecordInput> {
  const random = new Random(`${options.seed}:leads`);
  const sourceIdAt = (index: number) => demoLeadSourceId(options.seed, index);
  const days = recentDayPicker(options.now, 2.6, 0.25);
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

  const companyOf = (): { company: PostingCompany; ref: CompanyRef | null } => {
    if (!companyPicker || random.chance(NO_PROFILE_SHARE)) {
      return { company: { name: random.pick(unprofiledNames), ref: null }, ref: null };
    }
    const ref = companyPicker.pick(random);
    return { company: { name: ref.name, ref }, ref };
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

  const postingFor = (company: PostingCompany, ref: CompanyRef | null, city: City): Posting => {
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
    others: LeadRecordInput['other_locations'],
  ): LeadRecordInput => {
    const { company, ref, salary } = posting;
    const sourceId = sourceIdAt(index);
    const id = leadIdFor(DEMO_SOURCE, sourceId);
    const titleSlug = slugify(posting.title);
    const jobLinks = [`https://www.techroles.example/jobs/${titleSlug}-${id.slice(3).toLowerCase()}`];
    if (ref?.websiteUrl) jobLinks.unshift(`https://careers.${ref.domain}/jobs/${titleSlug}`);
    const remoteBoost = posting.workType === 'Remote' ? 2 : 1;
    // The industry of a role is its company's, which the derivation copies; agencies post for clients.
    const ownIndustry = ref === null || ref.isAgency;
    return {
      feed_version: FEED_VERSION,
      source: DEMO_SOURCE,
      source_id: sourceId,
      status: posting.isOpen ? 'open' : 'closed',
      title: posting.title,
      company: ref ? { key: ref.key } : { name: company.name },
      location: { text: cityShortDisplay(city) },
      other_locations: others,
      posted_date: posting.date.date,
      employment_type: posting.employment,
      work_type: posting.workType,
      experience_level: posting.level,
      title_family: posting.family.name,
      ...(ownIndustry ? { industry: posting.industry.name } : {}),
      skills: posting.skills,
      soft_skills: posting.softSkills,
      salary,
      summary: (SUMMARY_STYLES[posting.summaryStyle] as (p: Posting, c: City) => string)(posting, city),
      job_links: jobLinks,
      experience_years: posting.experienceYears,
      applicants: Math.round(
        random.between(0.2, 1.5) * (4 + Math.min(posting.date.daysAgo, 60) * 2.5) * remoteBoost,
      ),
      job_tags: posting.jobTags,
    };
  };

  let index = 0;
  while (index < count) {
    const { company, ref } = companyOf();
    const wanted = random.chance(MULTI_CITY_SHARE) ? Math.min(random.int(2, 4), count - index) : 1;
    const cities = citiesOf(ref, wanted);
    const posting = postingFor(company, ref, cities[0] as City);
    const places = cities.map((city, offset) => ({
      source_id: sourceIdAt(index + offset),
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
