import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/errors.js';
import { errorResult, resultJson, successResult } from '../../src/mcp/tool-result.js';

describe('resultJson', () => {
  it('writes a success exactly as JSON.stringify does, whatever the structured content', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (value) => {
        const result = successResult(value);
        expect(resultJson(result)).toBe(JSON.stringify(result));
      }),
    );
  });

  it('writes an error result, and a result it did not make, exactly as JSON.stringify does', () => {
    const failure = errorResult(new DomainError('not_found', 'No lead "ld_1" – “quoted” €', { id: 'ld_1' }));
    expect(resultJson(failure)).toBe(JSON.stringify(failure));
    const copied = { ...successResult({ a: 1 }) };
    expect(resultJson(copied)).toBe(JSON.stringify(copied));
  });
});
