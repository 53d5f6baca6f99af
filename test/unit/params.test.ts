import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/errors.js';
import { parseToolArguments } from '../../src/mcp/arguments.js';
import {
  enrichLeadInput,
  getCompanyInput,
  getLeadInput,
  marketInsightsInput,
  noArgumentsInput,
  searchCompaniesInput,
  searchLeadsInput,
  searchSignalsInput,
} from '../../src/schemas/inputs.js';

function rejection(schema: Parameters<typeof parseToolArguments>[0], args: unknown) {
  try {
    parseToolArguments(schema, args);
  } catch (error) {
    if (error instanceof DomainError)
      return { code: error.code, field: error.details.field, message: error.message };
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(args)} to be rejected`);
}

describe('parseToolArguments', () => {
  it('fills in the defaults', () => {
    expect(parseToolArguments(searchLeadsInput, undefined)).toEqual({
      include_recruitment_agencies: false,
      salary_currency: 'GBP',
      page_size: 10,
    });
    expect(parseToolArguments(marketInsightsInput, { group_by: 'city' })).toEqual({
      group_by: 'city',
      metric: 'count',
      currency: 'GBP',
      limit: 10,
      filters: { include_recruitment_agencies: false },
    });
    expect(parseToolArguments(searchCompaniesInput, {})).toMatchObject({ min_open_roles: 1, page_size: 10 });
  });

  it('trims text parameters', () => {
    expect(parseToolArguments(searchLeadsInput, { title: '  data engineer ' }).title).toBe('data engineer');
  });

  it.each([
    [searchLeadsInput, { page_size: 26 }, 'page_size', /1 to 25/],
    [searchLeadsInput, { page_size: 0 }, 'page_size', /1 to 25/],
    [searchLeadsInput, { page_size: '5' }, 'page_size', /whole number/],
    [searchLeadsInput, { radius_km: 2.5 }, 'radius_km', /1 to 200/],
    [searchLeadsInput, { posted_within_days: 366 }, 'posted_within_days', /1 to 365/],
    [
      searchLeadsInput,
      { experience_level: 'senior' },
      'experience_level',
      /"Entry", "Mid", "Senior", "Lead", "Executive"/,
    ],
    [searchLeadsInput, { work_type: 'Onsite' }, 'work_type', /"On-site"/],
    [searchLeadsInput, { salary_currency: 'CHF' }, 'salary_currency', /"GBP", "EUR", "USD"/],
    [searchLeadsInput, { skills: 'Python' }, 'skills', /a list/],
    [
      searchLeadsInput,
      { skills: Array.from({ length: 11 }, (_, index) => `s${index}`) },
      'skills',
      /at most 10/,
    ],
    [searchLeadsInput, { skills: ['Go', ''] }, 'skills.1', /must not be empty/],
    [searchLeadsInput, { min_annual_salary: -1 }, 'min_annual_salary', /0 or more/],
    [searchLeadsInput, { min_annual_salary: 90000, max_annual_salary: 50000 }, 'max_annual_salary', /below/],
    [
      searchLeadsInput,
      { include_recruitment_agencies: 'yes' },
      'include_recruitment_agencies',
      /true or false/,
    ],
    [searchLeadsInput, { company_id: 'acme' }, 'company_id', /company id such as "co_/],
    [searchLeadsInput, { title: '   ' }, 'title', /must not be empty/],
    [
      searchLeadsInput,
      { colour: 'blue' },
      'colour',
      /Unknown parameter "colour".*allowed parameters here are: title, location/,
    ],
    // The one parameter an unknown name most likely means: its words, its spelling or its singular.
    [searchLeadsInput, { min_salary: 50000 }, 'min_salary', /Did you mean "min_annual_salary"\?$/],
    [searchLeadsInput, { skill: ['go'] }, 'skill', /Did you mean "skills"\?$/],
    [searchLeadsInput, { industries: 'fintech' }, 'industries', /Did you mean "industry"\?$/],
    [searchSignalsInput, { category: 'funding' }, 'category', /Did you mean "categories"\?$/],
    [searchSignalsInput, { country: 'DE' }, 'country', /Did you mean "countries"\?$/],
    [
      marketInsightsInput,
      { group_by: 'city', filters: { level: 'Senior' } },
      'filters.level',
      /"experience_level"\?$/,
    ],
    // None when several would do.
    [
      searchLeadsInput,
      { salary: 50000 },
      'salary',
      /max_annual_salary, salary_currency, page_size, cursor\.$/,
    ],
    [searchLeadsInput, 'title=engineer', 'arguments', /must be an object/],
    [getLeadInput, {}, 'lead_id', /is required/],
    [getLeadInput, { lead_id: 'co_AAAAAAAAAA' }, 'lead_id', /lead id such as "ld_/],
    [enrichLeadInput, { lead_id: 42 }, 'lead_id', /a string/],
    [getCompanyInput, { company_id: 'co_short' }, 'company_id', /company id/],
    [searchCompaniesInput, { min_open_roles: 1001 }, 'min_open_roles', /1 to 1000/],
    [searchCompaniesInput, { radius_km: 10 }, 'radius_km', /Unknown parameter/],
    [searchSignalsInput, { countries: ['GB', 'FR'] }, 'countries.1', /"GB", "IE"/],
    [searchSignalsInput, { categories: ['ipo'] }, 'categories.0', /funding/],
    [searchSignalsInput, { polarity: 'good' }, 'polarity', /positive/],
    [searchSignalsInput, { announced_within_days: 0 }, 'announced_within_days', /1 to 365/],
    [marketInsightsInput, {}, 'group_by', /is required; one of: "experience_level"/],
    [marketInsightsInput, { group_by: 'region' }, 'group_by', /posted_month/],
    [marketInsightsInput, { group_by: 'city', metric: 'avg' }, 'metric', /"count", "salary"/],
    [marketInsightsInput, { group_by: 'city', limit: 51 }, 'limit', /1 to 50/],
    [marketInsightsInput, { group_by: 'city', breakdown_by: 'skill' }, 'breakdown_by', /"country"/],
    [
      marketInsightsInput,
      { group_by: 'country', breakdown_by: 'country' },
      'breakdown_by',
      /differ from group_by/,
    ],
    [marketInsightsInput, { group_by: 'city', filters: { radius_km: 500 } }, 'filters.radius_km', /1 to 200/],
    [
      marketInsightsInput,
      { group_by: 'city', filters: { salary_currency: 'GBP' } },
      'filters.salary_currency',
      /Unknown/,
    ],
    [noArgumentsInput, { verbose: true }, 'verbose', /Unknown parameter/],
  ])('rejects %# naming the field', (schema, args, field, message) => {
    const error = rejection(schema, args);
    expect(error.code).toBe('invalid_argument');
    expect(error.field).toBe(field);
    expect(error.message).toMatch(message);
  });
});

describe('a value outside a fixed list', () => {
  it.each([
    [searchLeadsInput, { work_type: 'remote' }, 'work_type', 'Did you mean "Remote"?'],
    [searchLeadsInput, { work_type: 'on site' }, 'work_type', 'Did you mean "On-site"?'],
    [searchLeadsInput, { experience_level: 'sr' }, 'experience_level', 'Did you mean "Senior"?'],
    [searchLeadsInput, { employment_type: 'contractor' }, 'employment_type', 'Did you mean "Contract"?'],
    [searchLeadsInput, { company_size: 'Scale-up' }, 'company_size', 'Did you mean "scale_up"?'],
    [searchSignalsInput, { countries: ['GB', 'UK'] }, 'countries.1', 'Did you mean "GB"?'],
    [
      searchSignalsInput,
      { countries: ['DACH'] },
      'countries.0',
      'Did you mean "DE", "AT", "CH"? Send each as an item of the list.',
    ],
    [searchSignalsInput, { categories: ['Layoffs'] }, 'categories.0', 'Did you mean "layoff"?'],
    [searchSignalsInput, { categories: ['Series A'] }, 'categories.0', 'Did you mean "funding"?'],
    [marketInsightsInput, { group_by: 'skills' }, 'group_by', 'Did you mean "skill"?'],
    [marketInsightsInput, { group_by: 'location' }, 'group_by', 'Did you mean "city" or "country"?'],
    [
      marketInsightsInput,
      { group_by: 'skill', breakdown_by: 'location' },
      'breakdown_by',
      'Did you mean "country"?',
    ],
    [searchLeadsInput, { salary_currency: '£' }, 'salary_currency', 'Did you mean "GBP"?'],
    [searchLeadsInput, { salary_currency: 'euros' }, 'salary_currency', 'Did you mean "EUR"?'],
    [marketInsightsInput, { group_by: 'skill', currency: 'US$' }, 'currency', 'Did you mean "USD"?'],
  ])('is refused as the contract says, naming the value meant: %j', (schema, args, field, meant) => {
    const error = rejection(schema, args);
    expect(error).toMatchObject({ code: 'invalid_argument', field });
    expect(error.message).toContain(meant);
  });

  it('names nothing when the value means none of the list', () => {
    expect(rejection(searchLeadsInput, { work_type: 'On the moon' }).message).not.toMatch(/Did you mean/);
    expect(rejection(searchSignalsInput, { countries: ['France'] }).message).not.toMatch(/Did you mean/);
  });
});

describe('a number sent as the text of an amount', () => {
  it.each([
    [{ min_annual_salary: '50k' }, 'min_annual_salary', 'Did you mean 50000?'],
    [{ min_annual_salary: '1.1k' }, 'min_annual_salary', 'Did you mean 1100?'],
    [
      { max_annual_salary: '£60,000' },
      'max_annual_salary',
      'Did you mean 60000, with salary_currency "GBP"?',
    ],
    [
      { min_annual_salary: '€ 70 000' },
      'min_annual_salary',
      'Did you mean 70000, with salary_currency "EUR"?',
    ],
    [{ page_size: '10' }, 'page_size', 'Did you mean 10?'],
  ])('is refused, naming the number meant: %j', (args, field, meant) => {
    const error = rejection(searchLeadsInput, args);
    expect(error).toMatchObject({ code: 'invalid_argument', field });
    expect(error.message.endsWith(meant)).toBe(true);
  });

  it('names nothing when the text is no whole amount', () => {
    for (const typed of ['sixty', '1.2345k', '99999999999999999999', `${'1'.repeat(40)}k`])
      expect(rejection(searchLeadsInput, { min_annual_salary: typed }).message, typed).not.toMatch(
        /Did you mean/,
      );
  });
});

describe('the value an error message shows', () => {
  /** What a client's JSON parses to: `1e400` and deep nesting cannot be written as JS literals. */
  const parsed = (json: string) => JSON.parse(json) as unknown;

  it('shows a number too large for a double as the infinity it parsed to, not as null', () => {
    const error = rejection(searchLeadsInput, parsed('{"page_size":1e400}'));
    expect(error).toMatchObject({ code: 'invalid_argument', field: 'page_size' });
    expect(error.message).toContain('(received Infinity)');
    expect(rejection(searchLeadsInput, parsed('{"page_size":-1e400}')).message).toContain(
      '(received -Infinity)',
    );
  });

  it('shows the start of a value nested too deeply to print whole, instead of failing', () => {
    const depth = 100_000;
    const error = rejection(searchLeadsInput, parsed(`{"title":${'['.repeat(depth)}${']'.repeat(depth)}}`));
    expect(error).toMatchObject({ code: 'invalid_argument', field: 'title' });
    expect(error.message).toMatch(/^title must be a string \(received \[{57}\.\.\.\)\.$/);
  });

  it('shows a long string by its start', () => {
    const error = rejection(searchLeadsInput, { page_size: 'x'.repeat(500_000) });
    expect(error.message).toBe(
      `page_size must be a whole number from 1 to 25 (received "${'x'.repeat(56)}...).`,
    );
  });
});
