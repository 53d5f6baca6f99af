import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldKey } from '../../src/domain/fold.js';

/** The folding with no shortcut for plain ASCII: what foldKey must give for every input. */
const fullFolding = (value: string) =>
  value
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/ß/g, 'ss')
    .replace(/ø/g, 'o')
    .replace(/ł/g, 'l')
    .replace(/\s+/g, ' ')
    .trim();

describe('foldKey', () => {
  it('folds accents, ß, ø, ł, case and spaces', () => {
    expect(foldKey('  Zürich\tStraße  øst łódź ')).toBe('zurich strasse ost lodz');
    expect(foldKey('Node.JS  Engineer')).toBe('node.js engineer');
  });

  it('folds capitals as their small letters, those without a decomposition (Ł, Ø, ẞ) too', () => {
    expect(foldKey('WROCŁAW')).toBe('wroclaw');
    expect(foldKey('TROMSØ')).toBe('tromso');
    expect(foldKey('GIEẞEN')).toBe('giessen');
    const letters = [...'aAeEzZłŁøØßẞüÜóÓåÅéÉñÑçÇ '];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...letters), { maxLength: 30 }), (chars) => {
        const text = chars.join('');
        expect(foldKey(text.toUpperCase())).toBe(foldKey(text.toLowerCase()));
      }),
      { numRuns: 1000, seed: 1 },
    );
  });

  it('gives what the full folding gives, for plain ASCII as for any text', () => {
    for (const unit of ['binary-ascii', 'binary'] as const) {
      fc.assert(
        fc.property(fc.string({ unit, maxLength: 40 }), (text) => {
          expect(foldKey(text)).toBe(fullFolding(text));
        }),
        { numRuns: 2000, seed: 1 },
      );
    }
  });
});
