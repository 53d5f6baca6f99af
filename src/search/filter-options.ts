import {
  COMPANY_SIZE_BAND_LABELS,
  CURRENCIES,
  EMPLOYMENT_TYPES,
  EXPERIENCE_LEVELS,
  INSIGHT_BREAKDOWN_BY,
  INSIGHT_GROUP_BY,
  SIGNAL_CATEGORIES,
  SIGNAL_COUNTRIES,
  SIGNAL_POLARITIES,
  WORK_TYPES,
} from '../domain/enums.js';
import { countryName } from './dto.js';
import { type LabelCount, labelCounts, type SearchBody, type TermsBuckets } from './es.js';
import { OPEN_ROLES } from './lead-query.js';

const TOP_INDUSTRIES = 20;

/** The most common industries among open roles; `label` is the value to pass as `industry`. */
export function buildTopIndustriesQuery(): SearchBody {
  return {
    size: 0,
    track_total_hits: false,
    query: OPEN_ROLES,
    aggs: {
      industries: {
        terms: { field: 'industry', size: TOP_INDUSTRIES, order: [{ _count: 'desc' }, { _key: 'asc' }] },
      },
    },
  };
}

export interface TopIndustriesResponse {
  aggregations?: { industries?: TermsBuckets };
}

export function readTopIndustries(response: TopIndustriesResponse): LabelCount[] {
  return labelCounts(response.aggregations?.industries);
}

/** What the free-text filters understand (docs/search-semantics.md, "How text is read"), for the assistant. */
const TEXT_FILTERS = {
  title:
    'Words of the role title (also hiring_for_title), in any order and case; plurals, hyphens and punctuation are ignored and common abbreviations and synonyms are read (ML, AI, SRE, SWE, SDE, MLE, FE, BE, QA, UX/UI, BI, CTO, CISO, sysadmin, front-end, full stack, dev ops, dotnet/.NET, C#, golang, node, web, mobile). Beside a specialty, engineer, developer and dev are read alike ("java engineer" finds Java Developer); alone, each is read as typed. Levels: Sr/Snr is Senior, Jr/junior/entry level is Junior, Graduate or Associate, mid-level is experience_level Mid, and an employer\'s level numbers (II, 3, L4) are left out: use experience_level. "Backend/Platform Engineer" means either;  " / " or "or" between titles means either title. Gender markers ((m/w/d)) and words for the posting (jobs, roles, positions, vacancies) are ignored. A word after a dash or NOT in capitals is left out ("senior -lead python", "data engineer NOT big").',
  skills:
    'Roles needing any of the skills; a skill is matched by its name ignoring case, spaces, punctuation, plurals and a version ("rest api" finds REST APIs, "nodejs" finds Node.js, "Python 3" finds Python), by a common other name (k8s, postgres, JS, TS, reactjs, sklearn, Google Cloud, AWS Lambda), by each name of "Kubernetes (k8s)", "GCP/BigQuery", "Python and Django" or "Kafka or RabbitMQ", without the words around a name that say how it is known ("kubernetes experience", "AWS certified"), or as a field\'s skills (ML, AI, cloud, frontend, GenAI).',
  location:
    'A city, region or country (name, alias, adjective or ISO code), a group of countries or an area (Europe, EMEA, EU, DACH, Nordics, Benelux, CEE, Central Europe, Balkans, UK&I, APAC, LATAM, North America, Bay Area, US East Coast, Midlands, Thames Valley, Randstad, Rhine-Main), or a work arrangement alone or with a place ("remote", "Remote UK", "Berlin (hybrid)"), read as work_type; several places named together ("London or Manchester") are any of them, a place "or remote" is roles there or remote roles anywhere ("Dublin or remote"), a distance with a city is a radius ("within 30 km of Berlin"), and words of a place\'s vicinity or its postcode are dropped ("near Munich", "London Area, United Kingdom", "10115 Berlin"); a country may follow a city without a comma ("Zurich Switzerland"). A misspelt place is read as the closest one; notes say how a location was read.',
  industry:
    'The industry by its name, ignoring case, spaces, punctuation and "&"/"and" ("health tech", "e-commerce"), or a common other name (telecoms, healthcare, edtech, finance = Fintech, Banking or Insurance); several joined by "or" or commas ("fintech or banking") are any of them, and by "and" when no industry has the whole name ("banking and finance"); words like "companies" or "sector" around the name are dropped.',
  company_name:
    'Part of the company name (name in search_companies, company_name in search_signals), any case; when none contains it, it is read without a legal form at its end ("Ltd", "GmbH", "Inc.") or a web address around it ("www.snowlink.com"), with its words run together, and by close spellings only when no company has the name.',
  fixed_values:
    'The fixed lists above (experience_level, work_type, employment_type, company_size, currencies, signal categories, polarities and countries, group_by, breakdown_by, metric) take their values exactly as listed. A value written another way is invalid_argument on its field, and the message names the value meant when there is one: "remote" is "Remote", "sr" "Senior", "contractor" "Contract", "layoffs" "layoff", "UK" "GB", "DACH" "DE", "AT" and "CH".',
  misspellings:
    'Only when nothing matches as typed, title, skills, industry and company names are read with close spellings (one or two letters off), a skill or industry of several words also as what its words name ("docker compose": Docker, "retail banking": Banking), and a title also with a word no title has as a skill ("javascript developer": developer roles listing JavaScript) or as the industry ("fintech java developer"), with the place or work arrangement of a job-board title as filters ("Data Engineer - London", "(Remote)"), its other parts as skills or the company ("DevOps Engineer (AWS, Terraform)", "Java Developer at Pixelstream"), without "software" beside a specialty that implies it ("backend software engineer"), and without a field beside a language of its roles ("python backend": Python Developers, not Full Stack); notes then say what was read. Notes also say when an abbreviation, synonym or other name was expanded.',
  nothing_found:
    'When a search_leads, get_market_insights or search_signals call with two filters or more finds nothing however it is read, notes say what leaving out each filter would find ("leaving out experience_level finds 193"), and for a title of several words or job-board parts, what leaving out each word or part would find ("leaving out NLP finds 186"), so that you can tell the user which filters or words exclude each other rather than that the market is empty.',
};

/** The `get_filter_options` result: the fixed lists exactly as the filters accept them, plus industries from the data. */
export function filterOptions(topIndustries: LabelCount[]) {
  return {
    experience_levels: [...EXPERIENCE_LEVELS],
    work_types: [...WORK_TYPES],
    employment_types: [...EMPLOYMENT_TYPES],
    company_size_bands: { ...COMPANY_SIZE_BAND_LABELS },
    salary_currencies: [...CURRENCIES],
    signal_categories: [...SIGNAL_CATEGORIES],
    signal_polarities: [...SIGNAL_POLARITIES],
    signal_countries: Object.fromEntries(SIGNAL_COUNTRIES.map((code) => [code, countryName(code)])),
    insight_group_by: [...INSIGHT_GROUP_BY],
    insight_breakdown_by: [...INSIGHT_BREAKDOWN_BY],
    top_industries: topIndustries,
    text_filters: { ...TEXT_FILTERS },
  };
}
