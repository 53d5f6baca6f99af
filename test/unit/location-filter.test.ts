import { describe, expect, it } from 'vitest';
import { placeKey, resolvePlace } from '../../src/reference/gazetteer.js';
import { MAX_REGION_PLACES, regionNamed, workArrangementIn } from '../../src/reference/regions.js';
import { cityOf, locationClauses, readLocation } from '../../src/search/location-filter.js';

describe('reading a location', () => {
  it('reads a city, region or country of the gazetteer as it is, without a note', () => {
    const munich = readLocation('Munich', true);
    expect(munich).toMatchObject({ keys: ['city:2867714'], workTypes: [], says: 'Munich, Germany' });
    expect(munich?.note).toBeUndefined();
    expect(munich && cityOf(munich)?.name).toBe('Munich');
    expect(readLocation('German', true)?.keys).toEqual(['country:de']);
  });

  it('reads groups of countries and metropolitan areas as all their places, and says so', () => {
    const dach = readLocation('DACH', true);
    expect(dach && locationClauses(dach)).toEqual([
      { terms: { 'location.keys': ['country:de', 'country:at', 'country:ch'] } },
    ]);
    expect(dach?.note).toBe('Read the location "DACH" as Germany, Austria or Switzerland.');
    expect(dach && cityOf(dach)).toBeUndefined();
    expect(readLocation('Europe', true)?.keys).toEqual(expect.arrayContaining(['country:gb', 'country:ch']));
    expect(readLocation('EU', true)?.keys).not.toContain('country:gb');
    expect(readLocation('Bay Area', true)?.keys).toContain('city:5391959');
    // "EU" is also a town in Normandy: the region wins.
    expect(readLocation('eu', true)?.note).toMatch(/European Union/);
  });

  it('reads words for a work arrangement as work_type, with the place they come with', () => {
    const remote = readLocation('remote', true);
    expect(remote && locationClauses(remote)).toEqual([{ term: { work_type: 'Remote' } }]);
    expect(remote?.note).toBe('Read the location "remote" as work_type Remote, in any place.');
    for (const typed of ['Remote UK', 'UK (Remote)', 'Remote - UK', 'Remote in UK']) {
      const reading = readLocation(typed, true);
      expect(reading && locationClauses(reading), typed).toEqual([
        { term: { 'location.keys': 'country:gb' } },
        { term: { work_type: 'Remote' } },
      ]);
    }
    expect(readLocation('Berlin (Hybrid)', true)?.note).toBe(
      'Read the location "Berlin (Hybrid)" as Berlin, Germany, with work_type Hybrid.',
    );
    expect(readLocation('Remote Narnia', true)).toBeUndefined();
  });

  it('reads several places named together as any of them, and says so', () => {
    const either = readLocation('London or Manchester', true);
    expect(either).toMatchObject({
      keys: ['city:2643743', 'city:2643123'],
      note: 'Read the location "London or Manchester" as London, United Kingdom or Manchester, United Kingdom.',
    });
    expect(either && cityOf(either)).toBeUndefined();
    expect(readLocation('Germany and Austria', true)?.keys).toEqual(['country:de', 'country:at']);
    expect(readLocation('London, Berlin', true)?.keys).toEqual(['city:2643743', 'city:2950159']);
    expect(readLocation('Remote UK or Germany', true)).toMatchObject({
      keys: ['country:gb', 'country:de'],
      workTypes: ['Remote'],
    });
    // A qualified name is one place; a part that names no place leaves the whole unrecognised.
    expect(readLocation('London, CA', true)?.keys).toHaveLength(1);
    expect(readLocation('London or Narnia', true)).toBeUndefined();
  });

  it('reads a place or a work arrangement alone as either: the place, or the arrangement anywhere', () => {
    const dublin = readLocation('Dublin or remote', true);
    expect(dublin?.note).toBe(
      'Read the location "Dublin or remote" as Dublin, Ireland, or work_type Remote in any place.',
    );
    const inDublin = { term: { 'location.keys': 'city:2964574' } };
    const remote = { term: { work_type: 'Remote' } };
    const either = (here: unknown) => [{ bool: { should: [here, remote], minimum_should_match: 1 } }];
    expect(dublin && locationClauses(dublin)).toEqual(either(inDublin));
    expect(readLocation('Remote or Dublin', true)).toEqual(dublin && { ...dublin, note: expect.any(String) });
    const hybrid = readLocation('London (hybrid) or remote', true);
    expect(hybrid && locationClauses(hybrid)).toEqual(
      either({
        bool: { filter: [{ term: { 'location.keys': 'city:2643743' } }, { term: { work_type: 'Hybrid' } }] },
      }),
    );
    expect(readLocation('Berlin, Munich or remote', true)?.keys).toEqual(['city:2950159', 'city:2867714']);
    // Within a radius of its city, the place is the radius.
    const near = { geo_distance: { distance: '30km', 'location.geo': { lat: 53.3, lon: -6.2 } } };
    expect(dublin && locationClauses(dublin, near)).toEqual(either(near));
    // An arrangement that comes with a place is the place's ("Remote UK or Ireland": remote, in either).
    expect(readLocation('Remote UK or Ireland', true)).not.toHaveProperty('orAnywhere');
    expect(readLocation('Narnia or remote', true)).toBeUndefined();
  });

  it('reads a city with a distance typed around it as a radius, within the bounds of radius_km', () => {
    const berlin = resolvePlace('Berlin');
    for (const typed of ['within 30km of Berlin', 'Berlin +30km', 'Berlin (30 km)', '30 km around Berlin']) {
      const reading = readLocation(typed, true);
      expect(reading?.radiusKm, typed).toBe(30);
      expect(reading?.place, typed).toEqual(berlin);
      expect(reading?.note, typed).toBe(`Read the location "${typed}" as within 30 km of Berlin, Germany.`);
    }
    expect(readLocation('20 miles from Manchester', true)?.radiusKm).toBe(32);
    expect(readLocation('within 500 km of Berlin', true)).toMatchObject({
      radiusKm: 200,
      note: 'Read the location "within 500 km of Berlin" as within 200 km of Berlin, Germany (a radius is 1 to 200 km).',
    });
    // Only around one city.
    expect(readLocation('within 30 km of Germany', true)?.radiusKm).toBeUndefined();
  });

  it('reads a place named with words of its vicinity as the place', () => {
    for (const [typed, says] of [
      ['based in Berlin', 'Berlin, Germany'],
      ['anywhere in the UK', 'United Kingdom'],
      ['UK-based', 'United Kingdom'],
      ['UK-wide', 'United Kingdom'],
    ] as const) {
      expect(readLocation(typed, true)?.note, typed).toBe(`Read the location "${typed}" as ${says}.`);
    }
    // A name with an article is the place itself.
    expect(readLocation('The Hague', true)?.note).toBeUndefined();
    expect(readLocation('near Munich', true)).toMatchObject({
      keys: ['city:2867714'],
      note: 'Read the location "near Munich" as Munich, Germany.',
    });
    const area = readLocation('London area', true);
    expect(area?.keys).toEqual(['city:2643743']);
    // Still one city, so radius_km can measure from it.
    expect(area && cityOf(area)?.name).toBe('London');
    expect(readLocation('near Narnia', true)).toBeUndefined();
    // As networking sites write a member's place: the vicinity is of the name, before its qualifiers.
    for (const typed of ['London Area, United Kingdom', 'Greater London Area, UK']) {
      expect(readLocation(typed, true), typed).toMatchObject({
        keys: ['city:2643743'],
        note: `Read the location "${typed}" as London, United Kingdom.`,
      });
    }
    expect(readLocation('Greater Munich Metropolitan Area', true)?.keys).toEqual(['city:2867714']);
    expect(readLocation('Munich Metropolitan Region', true)?.keys).toEqual(['city:2867714']);
    expect(readLocation('DACH region', true)?.says).toBe('Germany, Austria or Switzerland');
    // The middle of a city is the city; of anything wider it is no place read.
    for (const typed of ['Central London', 'London city centre', 'London City Center, UK']) {
      expect(readLocation(typed, true)?.keys, typed).toEqual(['city:2643743']);
    }
    expect(readLocation('Central Asia', true)).toBeUndefined();
    // As German- and Polish-speaking job boards write them.
    for (const [typed, says] of [
      ['Raum München', 'Munich, Germany'],
      ['Stuttgart und Umgebung', 'Stuttgart, Germany'],
      ['bundesweit', 'Germany'],
      ['Trójmiasto', 'Gdańsk, Gdynia and Sopot'],
      ['Kraków i okolice', 'Kraków, Poland'],
      ['Homeoffice', 'work_type Remote'],
      ['Warszawa (hybrydowo)', 'Warsaw, Poland, with work_type Hybrid'],
    ] as const) {
      expect(readLocation(typed, true)?.says, typed).toBe(says);
    }
    // A district of London, a commute to a city, the days in the office of a hybrid role.
    for (const typed of [
      'Canary Wharf',
      'Shoreditch',
      'London commutable',
      'within commuting distance of London',
    ]) {
      expect(readLocation(typed, true)?.keys, typed).toEqual(['city:2643743']);
    }
    for (const typed of ['London (hybrid 2 days)', 'London (Hybrid, 2-3 days a week in the office)']) {
      expect(readLocation(typed, true), typed).toMatchObject({
        keys: ['city:2643743'],
        workTypes: ['Hybrid'],
      });
    }
    // A group of countries is a region of the file, not the closest spelling of a far-away province.
    expect(readLocation('Balkans', true)?.says).toBe('the countries of the Balkans');
    // A place the gazetteer knows by a name with "Greater" is read by that name, with no note.
    const manchester = readLocation('Greater Manchester', true);
    expect(manchester?.keys).toEqual(['city:2643123']);
    expect(manchester).not.toHaveProperty('note');
  });

  it('reads a place qualified without a comma, or written with its postcode, as the place', () => {
    expect(readLocation('Zurich Switzerland', true)?.says).toBe('Zurich, Switzerland');
    expect(readLocation('Berlin Germany (Hybrid)', true)).toMatchObject({
      says: 'Berlin, Germany, with work_type Hybrid',
      workTypes: ['Hybrid'],
    });
    expect(readLocation('Cambridge United Kingdom', true)?.says).toBe('Cambridge, United Kingdom');
    // The last words qualify the rest only when they name a place that holds it.
    expect(readLocation('London Manchester', true)).toBeUndefined();
    for (const typed of ['10115 Berlin', 'London EC2A 4NE']) {
      expect(readLocation(typed, true)?.note, typed).toMatch(
        /^Read the location ".*" as (Berlin, Germany|London, United Kingdom)\.$/,
      );
    }
  });

  it.each([
    ['Midlands', 'Birmingham'],
    ['Thames Valley', 'Reading'],
    ['Randstad', 'Rotterdam'],
    ['Rhine-Main', 'Wiesbaden'],
    ['Rhein-Neckar', 'Heidelberg'],
    ['the Home Counties', 'Guildford'],
    ['Ruhr area', 'Dortmund'],
    ['North of England', 'Leeds'],
    ['South East England', 'Brighton'],
    ['the South West of England', 'Bristol'],
    ['Yorkshire', 'Sheffield'],
    ['East Anglia', 'Norwich'],
    // English counties and regions as recruiters name them; a country or region that holds an
    // area may qualify it.
    ['Surrey', 'Guildford'],
    ['Herts', 'Watford'],
    ['West Yorkshire', 'Bradford'],
    ['the North West', 'Liverpool'],
    ['Surrey, UK', 'Woking'],
    ['Yorkshire, England', 'Leeds'],
    ['Bay Area, CA', 'Oakland'],
  ])('reads the area %s as its cities, %s among them', (typed, city) => {
    const place = resolvePlace(city);
    expect(readLocation(typed, true)?.keys).toContain(place && placeKey(place));
  });

  it('reads an area qualified by a place that holds it as the area alone, and a town so qualified as the town', () => {
    expect(readLocation('Essex, UK', true)?.says).toBe('the towns of Essex');
    expect(readLocation('Surrey, BC', true)?.says).toBe('Surrey, Canada');
    expect(readLocation('Kent, WA', true)?.says).toBe('Kent, United States');
  });

  it('reads a misspelt place as the closest one only when asked, and says so', () => {
    expect(readLocation('Manchaster', true)).toMatchObject({
      keys: ['city:2643123'],
      note: 'No place is called "Manchaster", so it was read as Manchester, United Kingdom.',
    });
    expect(readLocation('Manchaster', false)).toBeUndefined();
    // With a qualifier that holds it, with or without a comma: the city, not it or the country.
    for (const typed of ['Manchster, UK', 'Manchster UK']) {
      expect(readLocation(typed, true), typed).toMatchObject({
        keys: ['city:2643123'],
        note: `No place is called "${typed}", so it was read as Manchester, United Kingdom.`,
      });
    }
    for (const unknown of ['Narnia', 'Mordor', 'Xyzzy'])
      expect(readLocation(unknown, true), unknown).toBeUndefined();
  });
});

describe('the regions file', () => {
  it('keeps every region within its bound', () => {
    for (const typed of ['Europe', 'EMEA', 'APAC', 'LATAM', 'Americas', 'Africa', 'Asia']) {
      const keys = regionNamed(typed)?.keys ?? [];
      expect(keys.length, typed).toBeGreaterThan(10);
      expect(keys.length, typed).toBeLessThanOrEqual(MAX_REGION_PLACES);
    }
  });

  it('ignores case, punctuation, spaces and "and"/"&" in the names of regions', () => {
    expect(regionNamed('UK & Ireland')).toBe(regionNamed('uk and ireland'));
    expect(regionNamed('asia-pacific')).toBe(regionNamed('APAC'));
  });

  it('finds the work arrangement wherever it is in the text', () => {
    expect(workArrangementIn('London, UK (remote)')).toEqual({ workTypes: ['Remote'], rest: 'london, uk' });
    expect(workArrangementIn('in-office, Paris')).toEqual({ workTypes: ['On-site'], rest: 'paris' });
    expect(workArrangementIn('Fully remote')).toEqual({ workTypes: ['Remote'], rest: '' });
    expect(workArrangementIn('Berlin')).toBeUndefined();
  });
});
