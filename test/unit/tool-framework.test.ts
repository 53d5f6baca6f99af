import { describe, expect, it } from 'vitest';
import { displayPrefix, generateApiKey, hashApiKey, looksLikeApiKey } from '../../src/auth/api-key-format.js';
import { NotFound } from '../../src/errors.js';
import { asDomainError, errorResult, successResult } from '../../src/mcp/tool-result.js';
import { silentLogger } from '../support/test-server.js';

describe('tool results', () => {
  it('carry the object as structuredContent and the same JSON as text', () => {
    const result = successResult({ total: 2, items: ['a', 'b'] });
    expect(result.structuredContent).toEqual({ total: 2, items: ['a', 'b'] });
    expect(result.content).toEqual([{ type: 'text', text: '{"total":2,"items":["a","b"]}' }]);
  });

  it('turn domain errors into the documented error, without structuredContent', () => {
    const result = errorResult(
      asDomainError(new NotFound('lead_id', 'ld_x', 'lead'), { requestId: 'r1', logger: silentLogger }),
    );
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const text = (result.content[0] as { text: string }).text;
    expect(JSON.parse(text)).toEqual({
      error: { code: 'not_found', message: expect.any(String), details: { field: 'lead_id', id: 'ld_x' } },
    });
  });

  it('hide unexpected errors behind internal with the request id', () => {
    const failure = asDomainError(new Error('boom at /srv/x.ts'), {
      requestId: 'req-9',
      logger: silentLogger,
    });
    expect(failure.code).toBe('internal');
    expect(failure.details).toEqual({ request_id: 'req-9' });
    expect(failure.message).not.toContain('/srv');
  });
});

describe('API key format', () => {
  it('is hl_live_ and 32 base62 characters, stored as a SHA-256 hex hash', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^hl_live_[0-9A-Za-z]{32}$/);
    expect(looksLikeApiKey(key)).toBe(true);
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(displayPrefix(key)).toBe(key.slice(0, 12));
    expect(generateApiKey()).not.toBe(key);
  });

  it('rejects look-alikes before any lookup', () => {
    expect(looksLikeApiKey('hl_live_short')).toBe(false);
    expect(looksLikeApiKey(`hl_test_${'a'.repeat(32)}`)).toBe(false);
  });
});
