import { describe, expect, it } from 'vitest';
import { daysBefore } from '../../src/domain/calendar.js';
import { DomainError } from '../../src/errors.js';
import { parseToolArguments } from '../../src/mcp/arguments.js';
import { searchLeadsInput } from '../../src/schemas/inputs.js';
import { FIRST_PAGE } from '../../src/search/cursor.js';
import { buildLeadFilter, buildLeadSearch, LEAD_CARD_FIELDS } from '../../src/search/lead-query.js';

const now = new Date('2026-11-18T23:30:00Z');
const leadArgs = (args: Record<string, unknown>) => parseToolArguments(searchLeadsInput, args);
const filtersOf = (args: Record<string, unknown>) => buildLeadFilter(leadArgs(args), now).filter;

function thrown(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected an error');
}

describe('buildLeadFilter', () => {
  it('always keeps open roles and leaves agencies out by default', () => {
    expect(filtersOf({})).toEqual([{ term: { is_open: true } }, { term: { 'company.is_agency': false } }]);
    expect(filtersOf({ include_recruitment_agencies: true })).toEqual([{ term: { is_open: true } }]);
  });

  it('has nothing to note and no unknown place when no location is given', () => {
    expect(buildLeadFilter(leadArgs({ title: 'Engineer' }), now)).toMatchObject({
      notes: [],
      unknownPlace: false,
    });
  });

  it('matches every title word on the analysed title', () => {
    expect(filtersOf({ title: 'Backend Engineers' })).toContainEqual({
      bool: {
        filter: [{ term: { title_terms: 'backend' } }, { terms: { title_terms: ['engineer', 'developer'] } }],
      },
    });
  });

  it('resolves a place through the gazetteer to its location key', () => {
    expect(buildLeadFilter(leadArgs({ location: 'Berlin' }), now)).toMatchObject({
      notes: [],
      unknownPlace: false,
    });
    expect(filtersOf({ location: 'UK' })).toContainEqual({ term: { 'location.keys': 'country:gb' } });
    expect(filtersOf({ location: 'München' })).toContainEqual({ term: { 'location.keys': 'city:2867714' } });
    expect(filtersOf({ location: 'england' })).toContainEqual({ term: { 'location.keys': 'region:gb.eng' } });
  });

  it('turns a radius around a city into a geo_distance filter', () => {
    const filter = filtersOf({ location: 'London', radius_km: 25 });
    expect(filter).toContainEqual({
      geo_distance: {
        distance: '25km',
        'location.geo': { lat: expect.any(Number), lon: expect.any(Number) },
      },
    });
    expect(JSON.stringify(filter)).not.toContain('location.keys');
    expect(buildLeadFilter(leadArgs({ location: 'London', radius_km: 25 }), now)).toMatchObject({
      notes: [],
      unknownPlace: false,
    });
  });

  it('refuses a radius around a region or country, naming location', () => {
    const error = thrown(() => filtersOf({ location: 'Germany', radius_km: 50 }));
    expect(error.code).toBe('invalid_argument');
    expect(error.details.field).toBe('location');
    expect(error.message).toMatch(/^"Germany" is a country, but radius_km measures from a city\./);
    const regionError = thrown(() =>
      buildLeadFilter({ ...leadArgs({}), location: 'Bavaria', radius_km: 5 }, now, 'filters.'),
    );
    expect(regionError.details.field).toBe('filters.location');
    expect(regionError.message).toMatch(/^"Bavaria" is a region, .* search the whole region\.$/);
  });

  it('refuses a radius without a location, naming radius_km and saying what is missing', () => {
    const error = thrown(() => filtersOf({ radius_km: 50 }));
    expect(error.details.field).toBe('radius_km');
    expect(error.message).toMatch(/needs location/);
  });

  it('matches nothing for an unknown place and says so', () => {
    const clauses = buildLeadFilter(leadArgs({ location: 'Narnia', radius_km: 10 }), now);
    expect(clauses.unknownPlace).toBe(true);
    expect(clauses.filter).toContainEqual({ match_none: {} });
    expect(clauses.notes[0]).toMatch(/"Narnia" was not recognised.*city, region or country/);
  });

  it('reads skills and industry by their match keys, the way documents are indexed', () => {
    const filter = filtersOf({ skills: ['Python', 'python ', 'Node.js'], industry: 'Fin-Tech' });
    expect(filter).toContainEqual({ terms: { skills_key: ['python', 'nodejs'] } });
    expect(filter).toContainEqual({ term: { industry_key: 'fintech' } });
  });

  it('filters the enumerations, company and size band on their fields', () => {
    const filter = filtersOf({
      experience_level: 'Senior',
      work_type: 'On-site',
      employment_type: 'Contract',
      company_id: 'co_AAAAAAAAAA',
      company_size: 'scale_up',
    });
    expect(filter).toEqual(
      expect.arrayContaining([
        { term: { experience_level: 'Senior' } },
        { term: { work_type: 'On-site' } },
        { term: { employment_type: 'Contract' } },
        { term: { 'company.id': 'co_AAAAAAAAAA' } },
        { term: { 'company.size_band': 'scale_up' } },
      ]),
    );
  });

  it('counts posted_within_days back from the UTC date', () => {
    expect(filtersOf({ posted_within_days: 7 })).toContainEqual({
      range: { posted_date: { gte: '2026-11-11', format: 'yyyy-MM-dd' } },
    });
    expect(daysBefore(new Date('2026-03-01T00:10:00Z'), 1).toISOString()).toBe('2026-02-28T00:00:00.000Z');
  });
});

describe('buildLeadSearch', () => {
  it('pages newest first with an exact total and the card fields only', () => {
    const { body } = buildLeadSearch(leadArgs({}), FIRST_PAGE, 10, now);
    expect(body).toMatchObject({
      sort: [{ posted_date: 'desc' }, { seq: 'desc' }],
      size: 10,
      track_total_hits: true,
      _source: { includes: LEAD_CARD_FIELDS },
    });
    expect(body).not.toHaveProperty('search_after');
    expect(LEAD_CARD_FIELDS).not.toContain('details');
  });

  it('continues after the cursor position', () => {
    const { body } = buildLeadSearch(leadArgs({}), { searchAfter: [1793577600000, 8], served: 10 }, 5, now);
    expect(body.search_after).toEqual([1793577600000, 8]);
    expect(body.size).toBe(5);
  });

  it('keeps roles whose annual range overlaps the bounds, in the chosen currency', () => {
    const { body } = buildLeadSearch(
      leadArgs({ min_annual_salary: 50000, max_annual_salary: 80000, salary_currency: 'EUR' }),
      FIRST_PAGE,
      10,
      now,
    );
    expect(body.query?.bool?.filter).toEqual(
      expect.arrayContaining([
        { range: { 'salary_annual.eur_max': { gte: 50000 } } },
        { range: { 'salary_annual.eur_min': { lte: 80000 } } },
      ]),
    );
  });

  it('bounds the salary only on the side given, and not at all without bounds', () => {
    const filterOf = (args: Record<string, unknown>) =>
      buildLeadSearch(leadArgs({ include_recruitment_agencies: true, ...args }), FIRST_PAGE, 10, now).body
        .query?.bool?.filter;
    expect(filterOf({})).toEqual([{ term: { is_open: true } }]);
    expect(filterOf({ min_annual_salary: 60000 })).toEqual([
      { term: { is_open: true } },
      { range: { 'salary_annual.gbp_max': { gte: 60000 } } },
    ]);
    expect(filterOf({ max_annual_salary: 90000, salary_currency: 'USD' })).toEqual([
      { term: { is_open: true } },
      { range: { 'salary_annual.usd_min': { lte: 90000 } } },
    ]);
  });

  it('passes the unknown-place note through', () => {
    const search = buildLeadSearch(leadArgs({ location: 'Narnia' }), FIRST_PAGE, 10, now);
    expect(search.unknownPlace).toBe(true);
    expect(search.notes).toHaveLength(1);
  });
});
