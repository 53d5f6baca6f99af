import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALL_ROLES_FACET, type RollupCompany, skillFacet } from '../../src/feed/rollups.js';
import { CompanyFacetCounts } from '../../src/ingest/rollups.js';

const company = (number: number): RollupCompany => ({
  id: `c${number}`,
  name: `Company ${number}`,
  name_key: `company ${number}`,
  rank_key: `company ${number}|c${number}`,
  size_band: 'small',
  is_agency: number % 5 === 0,
});

const FACETS = [ALL_ROLES_FACET, ...Array.from({ length: 60 }, (_, index) => skillFacet(`skill ${index}`))];

/** The documents of the counts, as the text written to Elasticsearch. */
const written = (counts: CompanyFacetCounts) =>
  [...counts.documents()].map((item) => `${item.id} ${item.parts.join('')}`);

describe('CompanyFacetCounts', () => {
  it('counts the same when its array fills and is packed again and again', () => {
    const roles = fc.array(
      fc.record({
        company: fc.integer({ min: 0, max: 40 }),
        facets: fc.uniqueArray(fc.constantFrom(...FACETS), { minLength: 1, maxLength: 12 }),
      }),
      { maxLength: 400 },
    );
    fc.assert(
      fc.property(roles, (added) => {
        // 8 slots to start with: every few blocks that grow fill the array and pack it.
        const packed = new CompanyFacetCounts(8);
        const roomy = new CompanyFacetCounts(1 << 20);
        const expected = new Map<string, number>();
        for (const { company: number, facets } of added) {
          packed.add(company(number), facets);
          roomy.add(company(number), facets);
          for (const facet of facets)
            expected.set(`${number} ${facet}`, (expected.get(`${number} ${facet}`) ?? 0) + 1);
        }
        expect(written(packed)).toEqual(written(roomy));
        const counted = new Map<string, number>();
        for (const item of packed.documents()) {
          const doc = JSON.parse(item.parts.slice(1, -1).join('')) as {
            company: RollupCompany;
            counts: Record<string, number>;
          };
          for (const [facet, count] of Object.entries(doc.counts))
            counted.set(`${doc.company.id.slice(1)} ${facet}`, count);
        }
        expect(counted).toEqual(expected);
      }),
      { numRuns: 200, seed: 7 },
    );
  });
});
