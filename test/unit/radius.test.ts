import { describe, expect, it } from 'vitest';
import { CITIES } from '../../seed/places.js';
import { parseToolArguments } from '../../src/mcp/arguments.js';
import { type City, findCity } from '../../src/reference/gazetteer.js';
import { marketInsightsInput, searchLeadsInput } from '../../src/schemas/inputs.js';
import { FIRST_PAGE } from '../../src/search/cursor.js';
import { buildLeadFilter, buildLeadSearch } from '../../src/search/lead-query.js';
import { onLeads } from '../support/insights-query.js';

const now = new Date('2026-11-18T10:00:00Z');
const leadArgs = (args: Record<string, unknown>) => parseToolArguments(searchLeadsInput, args);

function city(name: string): City {
  const found = findCity(name);
  if (!found) throw new Error(`no city ${name}`);
  return found;
}

/** The one filter clause a radius search adds, centred on `centre`. */
const aroundCentre = (radiusKm: number, centre: { lat: number; lon: number }) => ({
  geo_distance: { distance: `${radiusKm}km`, 'location.geo': { lat: centre.lat, lon: centre.lon } },
});

describe('the centre of a radius search', () => {
  it.each(
    CITIES.map((each) => [each.name, each] as const),
  )('%s: measures from the gazetteer’s coordinates of the city', (name, each) => {
    expect(buildLeadFilter(leadArgs({ location: name, radius_km: 30 }), now).filter).toEqual([
      { term: { is_open: true } },
      aroundCentre(30, each),
      { term: { 'company.is_agency': false } },
    ]);
  });

  // Pinned by value too, so a gazetteer loader that swapped or rounded coordinates would show here.
  it.each([
    ['London', { lat: 51.50853, lon: -0.12574 }],
    ['Munich', { lat: 48.13743, lon: 11.57549 }],
  ])('%s is at its real coordinates', (name, coordinates) => {
    expect(buildLeadFilter(leadArgs({ location: name, radius_km: 10 }), now).filter).toContainEqual(
      aroundCentre(10, coordinates),
    );
  });

  it.each([
    ['München', 'Munich'],
    ['munich, germany', 'Munich'],
    ['krakow', 'Kraków'],
    ['NYC', 'New York'],
    ['Wien', 'Vienna'],
  ])('%s (another name) measures from %s', (typed, name) => {
    expect(buildLeadFilter(leadArgs({ location: typed, radius_km: 200 }), now).filter).toContainEqual(
      aroundCentre(200, city(name)),
    );
  });

  it('search_leads sends the same centre to Elasticsearch', () => {
    const { body } = buildLeadSearch(leadArgs({ location: 'Reading', radius_km: 1 }), FIRST_PAGE, 25, now);
    expect(body.query?.bool?.filter).toContainEqual(aroundCentre(1, city('Reading')));
  });

  it('get_market_insights filters use the same centre', () => {
    const args = parseToolArguments(marketInsightsInput, {
      group_by: 'city',
      filters: { location: 'Gdańsk', radius_km: 25 },
    });
    expect(onLeads(args, now).body.query?.bool?.filter).toContainEqual(aroundCentre(25, city('Gdańsk')));
  });
});
