import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/errors.js';
import { argumentsFingerprint, decodeCursor, encodeCursor } from '../../src/search/cursor.js';

// Edge cases of the cursor codec; test/unit/cursor.test.ts has the main cases.

const secret = 'test-secret-0123456789';
const args = { title: 'engineer', page_size: 10 };

/** A cursor carrying `text`, signed as the server signs: what a holder of the secret could issue. */
function signedText(text: string): string {
  const encoded = Buffer.from(text).toString('base64url');
  return `${encoded}.${createHmac('sha256', secret).update(encoded).digest('base64url')}`;
}

const signedCursor = (payload: unknown) => signedText(JSON.stringify(payload));

function refusal(cursor: string): DomainError {
  try {
    decodeCursor(secret, 'search_leads', args, cursor);
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected the cursor to be refused');
}

describe('the arguments fingerprint', () => {
  const fingerprint = argumentsFingerprint;

  it('is short URL-safe text, so a cursor stays well under its length cap', () => {
    expect(fingerprint(args)).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('does not depend on the order of the arguments, at any depth', () => {
    expect(fingerprint({ a: 1, b: 2, c: 3, d: 4, e: { x: 1, y: 2 } })).toBe(
      fingerprint({ e: { y: 2, x: 1 }, d: 4, c: 3, b: 2, a: 1 }),
    );
    expect(fingerprint({ b: 1, a: 2 })).not.toBe(fingerprint({ a: 1, b: 2 }));
  });

  it('tells apart searches that differ in any value', () => {
    const distinct = [
      {},
      { page: 1 },
      { page: 2 },
      { page: '1' },
      { page: null },
      { page: true },
      { skills: ['Go'] },
      { skills: ['Rust'] },
      { skills: ['Go', 'Rust'] },
      { ids: [1, 23] },
      { ids: [12, 3] },
      { ids: { 0: 1, 1: 23 } },
      { filters: { city: 'Berlin' } },
      { filters: { city: 'Munich' } },
    ];
    expect(new Set(distinct.map(fingerprint)).size).toBe(distinct.length);
  });

  it('counts undefined values and empty lists, at any depth, as left out', () => {
    expect(fingerprint({ a: 1, b: undefined, c: [], d: { e: undefined, f: [] } })).toBe(
      fingerprint({ a: 1, d: {} }),
    );
  });
});

describe('decoding a cursor', () => {
  it('continues from the very first result when nothing was served yet', () => {
    const first = encodeCursor(secret, {
      tool: 'search_leads',
      args,
      position: { searchAfter: [5, 6], served: 0 },
    });
    expect(decodeCursor(secret, 'search_leads', args, first)).toEqual({ searchAfter: [5, 6], served: 0 });
  });

  it('refuses a signature of the wrong length', () => {
    const [payload, signature = ''] = encodeCursor(secret, {
      tool: 'search_leads',
      args,
      position: { searchAfter: null, served: 10 },
    }).split('.');
    // 40 characters are 30 whole bytes: valid base64url, two bytes short of an HMAC-SHA256.
    expect(refusal(`${payload}.${signature.slice(0, 40)}`).message).toMatch(/not valid/);
  });

  const valid = { v: 1, tool: 'search_leads', args: argumentsFingerprint(args), after: null, served: 10 };

  it('accepts the payload the server signs', () => {
    expect(decodeCursor(secret, 'search_leads', args, signedCursor(valid))).toEqual({
      searchAfter: null,
      served: 10,
    });
  });

  it('refuses a signed payload that is not JSON as not valid', () => {
    expect(refusal(signedText('{"v":1,')).message).toMatch(/not valid/);
  });

  it.each([
    ['null', null],
    ['a string', 'search_leads'],
    ['a list', [valid]],
    ['another version', { ...valid, v: 2 }],
    ['no tool', { ...valid, tool: undefined }],
    ['a tool that is not text', { ...valid, tool: 7 }],
    ['arguments that are not text', { ...valid, args: { title: 'engineer' } }],
    ['no served count', { ...valid, served: undefined }],
    ['a served count that is not a whole number', { ...valid, served: 1.5 }],
    ['a served count given as text', { ...valid, served: '10' }],
    ['a negative served count', { ...valid, served: -1 }],
    ['a position that is not a list', { ...valid, after: 'last' }],
    ['no position', { ...valid, after: undefined }],
  ])('refuses a signed payload with %s as not valid', (_case, payload) => {
    const error = refusal(signedCursor(payload));
    expect(error.details.field).toBe('cursor');
    expect(error.message).toMatch(/not valid/);
  });
});
