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
  };
}
