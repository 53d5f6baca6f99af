import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newChargeId } from '../../src/metering/quota-counters.js';
import { chargeEntry, journalOf, parseChargeEntry } from '../../src/stores/bounded-counter.js';

describe('charge journal entries', () => {
  it('read back the id and units they were written with', () => {
    fc.assert(
      fc.property(fc.nat({ max: 1_000_000 }), (units) => {
        const chargeId = newChargeId();
        expect(parseChargeEntry(chargeEntry(chargeId, units))).toEqual({ id: chargeId, units });
      }),
    );
  });

  it('match only the same id with the same units', () => {
    const [a, b] = [newChargeId(), newChargeId()];
    expect(chargeEntry(a, 10)).not.toBe(chargeEntry(b, 10));
    expect(chargeEntry(a, 10)).not.toBe(chargeEntry(a, 1));
  });
});

describe('charge ids', () => {
  it('are distinct, short and never hold the separator', () => {
    const ids = Array.from({ length: 100_000 }, newChargeId);
    expect(new Set(ids).size).toBe(ids.length);
    // One assertion over all of them: 200,000 `expect` calls took seconds on a busy CI machine.
    const misshapen = ids.filter((id) => !/^[A-Za-z0-9_-]{12}[0-9a-z]+$/.test(id) || id.length > 16);
    expect(misshapen).toEqual([]);
  });

  it('of one process share one journal, named by a valid MongoDB field name', () => {
    const journals = new Set(Array.from({ length: 1_000 }, () => journalOf(newChargeId())));
    expect(journals.size).toBe(1);
    const [journal = ''] = journals;
    expect(journal).toMatch(/^[A-Za-z0-9_-]{12}$/);
  });
});
