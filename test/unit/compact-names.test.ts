import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NameIndex, Utf8Texts } from '../../src/reference/compact-names.js';

describe('compact name stores', () => {
  it('give back every text as it was added, in any script', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary', maxLength: 120 }), { maxLength: 300, size: 'max' }),
        (texts) => {
          const store = new Utf8Texts();
          const numbers = texts.map((text) => store.add(text));
          store.trim();
          // Lone surrogates have no UTF-8: they come back as U+FFFD, as Buffer.from encodes them.
          return texts.every(
            (text, index) => store.text(numbers[index] as number) === Buffer.from(text).toString('utf8'),
          );
        },
      ),
      { numRuns: 100, seed: 30, endOnFailure: true },
    );
  });

  it('index names as a map of lists would: order kept, each value once, through growth', () => {
    const name = fc.oneof(
      fc.constantFrom('london', 'münchen', 'москва', '東京', 'a'.repeat(400), ''),
      fc.string({ minLength: 1, maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(name, fc.nat(50)), { minLength: 600, maxLength: 3000 }), (pairs) => {
        const index = new NameIndex(4);
        const model = new Map<string, number[]>();
        for (const [key, value] of pairs) {
          index.add(key, value);
          const list = model.get(key) ?? [];
          if (!list.includes(value)) list.push(value);
          model.set(key, list);
        }
        index.trim();
        for (const [key, values] of model) expect(index.get(key)).toEqual(values);
        expect(index.get('never added')).toEqual([]);
      }),
      { numRuns: 30, seed: 30, endOnFailure: true },
    );
  });
});
