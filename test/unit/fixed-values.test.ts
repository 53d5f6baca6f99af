import { describe, expect, it } from 'vitest';
import {
  COMPANY_SIZE_BANDS,
  EMPLOYMENT_TYPES,
  EXPERIENCE_LEVELS,
  INSIGHT_BREAKDOWN_BY,
  INSIGHT_GROUP_BY,
  INSIGHT_METRICS,
  SIGNAL_CATEGORIES,
  SIGNAL_COUNTRIES,
  SIGNAL_POLARITIES,
  WORK_TYPES,
} from '../../src/domain/enums.js';
import { fixedValuesMeant } from '../../src/reference/fixed-values.js';

describe('fixedValuesMeant', () => {
  it.each([
    [WORK_TYPES, 'remote', ['Remote']],
    [WORK_TYPES, 'ONSITE', ['On-site']],
    [WORK_TYPES, 'in office', ['On-site']],
    [WORK_TYPES, 'wfh', ['Remote']],
    [EXPERIENCE_LEVELS, 'senior', ['Senior']],
    [EXPERIENCE_LEVELS, 'Jr.', ['Entry']],
    [EXPERIENCE_LEVELS, 'principal', ['Lead']],
    [EXPERIENCE_LEVELS, 'C-level', ['Executive']],
    [EXPERIENCE_LEVELS, 'Head of', ['Executive']],
    [EXPERIENCE_LEVELS, 'managers', ['Lead']],
    [EMPLOYMENT_TYPES, 'full time', ['Full-time']],
    [EMPLOYMENT_TYPES, 'Contracts', ['Contract']],
    [EMPLOYMENT_TYPES, 'freelancer', ['Freelance']],
    [COMPANY_SIZE_BANDS, 'scale up', ['scale_up']],
    [INSIGHT_GROUP_BY, 'Skills', ['skill']],
    [INSIGHT_GROUP_BY, 'countries', ['country']],
    [INSIGHT_GROUP_BY, 'posted-week', ['posted_week']],
    [COMPANY_SIZE_BANDS, 'scale-up', ['scale_up']],
    [COMPANY_SIZE_BANDS, 'Mid-size', ['medium']],
    [COMPANY_SIZE_BANDS, 'large', ['enterprise']],
    [COMPANY_SIZE_BANDS, 'SMEs', ['small']],
    [INSIGHT_METRICS, 'median_salary', ['salary']],
    [INSIGHT_METRICS, 'jobs', ['count']],
    [INSIGHT_GROUP_BY, 'seniority', ['experience_level']],
    [INSIGHT_GROUP_BY, 'sector', ['industry']],
    [INSIGHT_BREAKDOWN_BY, 'seniority', ['experience_level']],
    [SIGNAL_CATEGORIES, 'Layoffs', ['layoff']],
    [SIGNAL_CATEGORIES, 'redundancies', ['layoff']],
    [SIGNAL_CATEGORIES, 'M&A', ['acquisition']],
    [SIGNAL_CATEGORIES, 'funding rounds', ['funding']],
    [SIGNAL_CATEGORIES, 'C-level change', ['c_level_change']],
    [SIGNAL_POLARITIES, 'Good news', ['positive']],
    [SIGNAL_POLARITIES, 'bad', ['negative']],
    [SIGNAL_COUNTRIES, 'UK', ['GB']],
    [SIGNAL_COUNTRIES, 'United Kingdom', ['GB']],
    [SIGNAL_COUNTRIES, 'gb', ['GB']],
    [SIGNAL_COUNTRIES, 'Deutschland', ['DE']],
    [SIGNAL_COUNTRIES, 'DACH', ['DE', 'AT', 'CH']],
  ] as Array<[readonly string[], string, string[]]>)('reads %j "%s" as %j', (allowed, typed, meant) => {
    expect(fixedValuesMeant(allowed, typed)).toEqual(meant);
  });

  it.each([
    [WORK_TYPES, 'Remote UK', 'a place besides the arrangement is not a work type'],
    [WORK_TYPES, 'office', 'not a work arrangement on its own'],
    [EXPERIENCE_LEVELS, 'mid senior', 'two levels cannot fill one'],
    [EXPERIENCE_LEVELS, 'expert', 'no level'],
    [SIGNAL_COUNTRIES, 'France', 'a country the signals do not cover'],
    [SIGNAL_COUNTRIES, 'Nordics', 'a group of countries none of which is covered'],
    [SIGNAL_COUNTRIES, 'London', 'a city is not a country'],
    [SIGNAL_COUNTRIES, 'Bavaria', 'a region is not a country'],
    [INSIGHT_GROUP_BY, 'region', 'no dimension'],
    [SIGNAL_CATEGORIES, 'hiring', 'no category'],
    [COMPANY_SIZE_BANDS, '51-200', 'a head count falls in overlapping bands'],
    [INSIGHT_BREAKDOWN_BY, 'sector', 'a dimension breakdown_by does not have'],
    [INSIGHT_METRICS, 'number of jobs', 'no other name of a metric'],
  ] as Array<[readonly string[], string, string]>)('reads %j "%s" as nothing: %s', (allowed, typed) => {
    expect(fixedValuesMeant(allowed, typed)).toBeUndefined();
  });
});
