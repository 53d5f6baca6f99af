import type { SocialLink } from '../src/domain/documents.js';
import type { CompanySizeBand } from '../src/domain/enums.js';
import { companyIdFor } from '../src/feed/ids.js';
import { type CompanyRecordInput, FEED_VERSION } from '../src/feed/records.js';
import { type City, cityShortDisplay } from '../src/reference/gazetteer.js';
import {
  AGENCY_INDUSTRY,
  BRAND_ENDS,
  BRAND_STARTS,
  INDUSTRIES,
  type Industry,
  LEGAL_FORMS,
  SIZE_BAND_SHARES,
  SIZES_BY_BAND,
  STAGE_TAGS,
  WEB_DOMAINS,
  WORKPLACE_TAGS,
} from './catalogue/companies.js';
import { ANY_CITY, citiesIn } from './places.js';
import { pickWeighted, Random, WeightedPicker } from './random.js';
import { article, joinList, slugify } from './text.js';

export interface SeedOptions {
  seed: number;
  /** `YYYY-MM-DD`: the day the data set is generated "as of". */
  now: string;
}

/** The source the demo's records name. */
export const DEMO_SOURCE = 'demo';

/** What the generators of leads and signals need to know of a company, kept in memory while they run. */
export interface CompanyRef {
  /** The company record's key, which leads and signals name it by. */
  key: string;
  name: string;
  websiteUrl: string | null;
  domain: string;
  sizeBand: CompanySizeBand;
  headcount: number;
  isAgency: boolean;
  industry: Industry;
  /** Headquarters first, then the other offices. */
  cities: City[];
}

/** The key of the company at `index`: the seed keeps companies of different seeds apart. */
function demoCompanyKey(seed: number, index: number): string {
  return `demo-${seed}-${index + 1}`;
}

const AGENCY_SHARE = 0.08;

const BRAND_COUNT = BRAND_STARTS.length * BRAND_ENDS.length;
/** Coprime with BRAND_COUNT, so `index * step mod BRAND_COUNT` visits every brand once before repeating. */
const BRAND_STEP = 1021;

/** A brand word ("Brightpath") unique among the first BRAND_COUNT companies. */
export function brandName(index: number, seed: number): string {
  const slot = (index * BRAND_STEP + (seed % BRAND_COUNT) * 7919) % BRAND_COUNT;
  const start = BRAND_STARTS[Math.floor(slot / BRAND_ENDS.length)] as string;
  const end = BRAND_ENDS[slot % BRAND_ENDS.length] as string;
  return start + end;
}

const industryPicker = new WeightedPicker(INDUSTRIES, (industry) => industry.weight);

const OFFICE_COUNT: Readonly<Record<CompanySizeBand, readonly [number, number]>> = {
  startup: [0, 0],
  scale_up: [0, 2],
  small: [0, 1],
  medium: [1, 3],
  enterprise: [2, 6],
};

const BAND_WORDS: Readonly<Record<CompanySizeBand, string>> = {
  startup: 'young',
  scale_up: 'fast-growing',
  small: 'established',
  medium: 'mid-sized',
  enterprise: 'global',
};

const TECH_SECTORS = new Set(['Technology', 'Financial Services', 'Healthcare & Life Sciences']);

function headcountFor(size: string, random: Random): number {
  const [low, high] = size.replace(/,/g, '').replace('+', '-40000').split('-').map(Number);
  return random.int(low ?? 1, high ?? low ?? 1);
}

function officeCities(headquarters: City, band: CompanySizeBand, random: Random): City[] {
  const [fewest, most] = OFFICE_COUNT[band];
  const wanted = random.int(fewest, most);
  const cities = [headquarters];
  for (let attempt = 0; cities.length <= wanted && attempt < wanted * 4; attempt++) {
    const city = random.chance(0.6) ? citiesIn(headquarters.countryCode).pick(random) : ANY_CITY.pick(random);
    if (!cities.includes(city)) cities.push(city);
  }
  return cities;
}

function aboutText(
  name: string,
  industry: Industry,
  band: CompanySizeBand,
  cities: City[],
  founded: number,
  random: Random,
): string {
  const headquarters = cities[0] as City;
  const descriptor = BAND_WORDS[band];
  const opening = `${name} is ${article(descriptor)} ${descriptor} ${industry.name.toLowerCase()} company headquartered in ${headquarters.name}, ${headquarters.countryName}.`;
  const activity = `Founded in ${founded}, it ${random.pick(industry.activities)}.`;
  const offices =
    cities.length > 1
      ? ` The team works from ${joinList(cities.slice(1).map((city) => city.name))} as well as its head office.`
      : '';
  return `${opening} ${activity}${offices}`;
}

function agencyAboutText(name: string, headquarters: City, founded: number, random: Random): string {
  return `${name} is a recruitment agency based in ${headquarters.name}, ${headquarters.countryName}. Founded in ${founded}, it ${random.pick(AGENCY_INDUSTRY.activities)}.`;
}

function socialLinks(slug: string, industry: Industry, random: Random): SocialLink[] {
  const links: SocialLink[] = [{ network: 'linkedin', url: `https://www.linkedin.com/company/${slug}` }];
  if (random.chance(0.6)) links.push({ network: 'x', url: `https://x.com/${slug.replace(/-/g, '')}` });
  if (TECH_SECTORS.has(industry.sector) && random.chance(0.5)) {
    links.push({ network: 'github', url: `https://github.com/${slug}` });
  }
  return links;
}

/** The company at `index`: a pure function of the seed, `now` and the index. */
function companyAt(index: number, options: SeedOptions): { record: CompanyRecordInput; ref: CompanyRef } {
  const random = new Random(`${options.seed}:company:${index}`);
  const isAgency = random.chance(AGENCY_SHARE);
  const industry = isAgency ? AGENCY_INDUSTRY : industryPicker.pick(random);
  const band: CompanySizeBand = isAgency
    ? pickWeighted(random, [
        ['small', 60],
        ['medium', 30],
        ['enterprise', 10],
      ])
    : pickWeighted(random, SIZE_BAND_SHARES);
  const sizeOption = pickWeighted(
    random,
    SIZES_BY_BAND[band].map((option) => [option, option.weight] as const),
  );
  const founded = Number(options.now.slice(0, 4)) - random.int(sizeOption.ages[0], sizeOption.ages[1]);
  const headquarters = ANY_CITY.pick(random);
  const cities = officeCities(headquarters, band, random);

  const brand = brandName(index, options.seed);
  const baseName = random.chance(0.3) ? brand : `${brand} ${random.pick(industry.nameWords)}`;
  const legalForms = LEGAL_FORMS[headquarters.countryCode] ?? [];
  const name =
    random.chance(0.25) && legalForms.length > 0 ? `${baseName} ${random.pick(legalForms)}` : baseName;
  const slug = slugify(baseName);
  const topLevelDomain =
    random.chance(0.2) && TECH_SECTORS.has(industry.sector)
      ? 'io'
      : (WEB_DOMAINS[headquarters.countryCode] ?? 'com');
  const domain = `${slug.replace(/-/g, '')}.${topLevelDomain}`;

  const key = demoCompanyKey(options.seed, index);
  const isBlueChip =
    !isAgency &&
    ((band === 'enterprise' && random.chance(0.45)) || (band === 'medium' && random.chance(0.08)));
  const about = isAgency
    ? agencyAboutText(name, headquarters, founded, random)
    : aboutText(name, industry, band, cities, founded, random);
  const links = socialLinks(slug, industry, random);
  const logoUrl = random.chance(0.9)
    ? `https://img.hiring-leads.example/logos/${companyIdFor(key)}.png`
    : null;
  const websiteUrl = random.chance(0.97) ? `https://www.${domain}` : null;
  const officeLocations = cities.map(cityShortDisplay);
  const tags = [random.pick(STAGE_TAGS[band]), ...random.sample(WORKPLACE_TAGS, random.int(1, 2))];

  const record: CompanyRecordInput = {
    feed_version: FEED_VERSION,
    source: DEMO_SOURCE,
    key,
    name,
    industry: industry.name,
    sector: industry.sector,
    size_band: band,
    size: sizeOption.size,
    founded,
    headquarters: { text: cityShortDisplay(headquarters) },
    office_locations: officeLocations,
    about,
    specialties: random.sample(industry.specialties, random.int(3, 5)),
    tags,
    is_agency: isAgency,
    is_blue_chip: isBlueChip,
    ...(logoUrl === null ? {} : { logo_url: logoUrl }),
    ...(websiteUrl === null ? {} : { website_url: websiteUrl }),
    social_links: links,
  };
  const ref: CompanyRef = {
    key,
    name,
    websiteUrl,
    domain,
    sizeBand: band,
    headcount: headcountFor(sizeOption.size, random),
    isAgency,
    industry,
    cities,
  };
  return { record, ref };
}

/** Company records in index order; each is generated on its own, so memory stays flat. */
export function* generateCompanies(count: number, options: SeedOptions): Generator<CompanyRecordInput> {
  for (let index = 0; index < count; index++) yield companyAt(index, options).record;
}

/** The references leads and signals need, for every company (a few hundred bytes each). */
export function companyDirectory(count: number, options: SeedOptions): CompanyRef[] {
  return Array.from({ length: count }, (_, index) => companyAt(index, options).ref);
}
