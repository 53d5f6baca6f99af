import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateLeads } from '../../seed/generate-leads.js';
import type { GeoPoint, LeadDoc } from '../../src/domain/documents.js';
import { deriveLead } from '../../src/feed/derive.js';
import { leadRecord } from '../../src/feed/records.js';
import { distanceKm, findCity, locationDoc } from '../../src/reference/gazetteer.js';
import { SEEDED } from '../support/seed-command.js';
import {
  callOk,
  connectSeededClient,
  type Json,
  openPrivateIndices,
  type PrivateIndices,
  startSeededServer,
} from '../support/seeded-data.js';
import type { TestServer } from '../support/test-server.js';

/** The sphere `distanceKm` measures on (Elasticsearch's differs by 9 m in 6,371 km: 0.1 m at 60 km). */
const EARTH_RADIUS_KM = 6371;

/** The point `km` from `from` along the initial compass `bearing` (degrees), on the sphere. */
function pointAt(from: GeoPoint, km: number, bearing: number): GeoPoint {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const degrees = (value: number) => (value * 180) / Math.PI;
  const angle = km / EARTH_RADIUS_KM;
  const lat1 = radians(from.lat);
  const heading = radians(bearing);
  const lat2 = Math.asin(
    Math.sin(lat1) * Math.cos(angle) + Math.cos(lat1) * Math.sin(angle) * Math.cos(heading),
  );
  const lon2 =
    radians(from.lon) +
    Math.atan2(
      Math.sin(heading) * Math.sin(angle) * Math.cos(lat1),
      Math.cos(angle) - Math.sin(lat1) * Math.sin(lat2),
    );
  return { lat: degrees(lat2), lon: degrees(lon2) };
}

const RADII_KM = [10, 60];
/** Half a kilometre either side of each radius: far beyond rounding, close enough to catch a wrong centre. */
const MARGIN_KM = 0.5;
/** North, east, south, west: east and west catch a longitude not scaled by latitude. */
const BEARINGS = [0, 90, 180, 270];

/**
 * The radius filter at its boundary, through the real endpoint: leads placed just inside and just
 * outside each radius around a city. They live in indices of their own, so the seeded data that
 * other tests count exactly is untouched.
 */
describe('search_leads radius_km at the boundary', () => {
  const centre = findCity('Munich');
  if (!centre) throw new Error('no Munich in the gazetteer');
  /** Where each test lead is, by a readable name: "centre", "9.5 km at 90°"... */
  const places = new Map<string, { km: number; geo: GeoPoint }>([
    ['centre', { km: 0, geo: { lat: centre.lat, lon: centre.lon } }],
  ]);
  for (const radius of RADII_KM) {
    for (const km of [radius - MARGIN_KM, radius + MARGIN_KM]) {
      for (const bearing of BEARINGS)
        places.set(`${km} km at ${bearing}°`, { km, geo: pointAt(centre, km, bearing) });
    }
  }
  const placeOfLead = new Map<string, string>();

  let index: PrivateIndices;
  let server: TestServer;
  let client: Client;

  beforeAll(async () => {
    index = await openPrivateIndices('radius');
    // Valid documents from the seed's generator, moved to the test's places; all open, none an agency.
    const templates = generateLeads(places.size, [], { seed: SEEDED.seed, now: SEEDED.now });
    const docs: LeadDoc[] = [...places].map(([name, place], position) => {
      const record = leadRecord.parse(templates.next().value);
      const doc = deriveLead(record, 'demo', null, SEEDED.now).doc;
      placeOfLead.set(doc.id, name);
      return {
        ...doc,
        seq: position + 1,
        fingerprint: '',
        is_open: true,
        company: { ...doc.company, is_agency: false },
        location: { ...locationDoc(centre), geo: place.geo },
      };
    });
    const response = await index.client.bulk({
      index: index.indices.leads,
      refresh: true,
      operations: docs.flatMap((doc) => [{ index: { _id: doc.id } }, doc]),
    });
    expect(response.errors).toBe(false);
    server = await startSeededServer({ INDEX_PREFIX: index.prefix });
    ({ client } = await connectSeededClient(server));
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
    await index?.close();
  });

  it('places the test leads where it says', () => {
    for (const place of places.values()) expect(distanceKm(centre, place.geo)).toBeCloseTo(place.km, 3);
  });

  it.each(RADII_KM)('%i km keeps exactly the leads inside', async (radius) => {
    const inside = [...places].filter(([, place]) => place.km <= radius).map(([name]) => name);
    expect(inside.length).toBeGreaterThan(1);
    expect(inside.length).toBeLessThan(places.size);
    const result = await callOk(client, 'search_leads', {
      location: 'München',
      radius_km: radius,
      page_size: 25,
    });
    expect(result.total).toBe(inside.length);
    expect(result.leads.map((lead: Json) => placeOfLead.get(lead.id)).sort()).toEqual(inside.sort());

    const insights = await callOk(client, 'get_market_insights', {
      group_by: 'city',
      filters: { location: 'Munich', radius_km: radius },
    });
    expect(insights.total).toBe(inside.length);
  });
});
