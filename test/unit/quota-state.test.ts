import { describe, expect, it } from 'vitest';
import { quotaExhausted, quotaState, remainingOf } from '../../src/metering/quota-state.js';

describe('remaining', () => {
  it('is the limit minus what was used, never negative', () => {
    expect(remainingOf(3, 10)).toBe(7);
    expect(remainingOf(10, 10)).toBe(0);
    expect(remainingOf(12, 10)).toBe(0);
  });

  it('is null when unlimited', () => {
    expect(remainingOf(12, null)).toBeNull();
  });

  it('builds the documented quota object', () => {
    expect(quotaState(4, 10, new Date('2026-03-14T10:00:00Z'))).toEqual({
      used: 4,
      limit: 10,
      remaining: 6,
      resets_at: '2026-03-15T00:00:00.000Z',
    });
    expect(quotaState(4, null, new Date('2026-03-14T10:00:00Z'))).toMatchObject({
      limit: null,
      remaining: null,
    });
  });
});

describe('an exhausted quota', () => {
  it('is refused with quota_exceeded, naming the quota and its next reset', () => {
    const refusal = quotaExhausted('lead_explores', new Date('2026-03-14T10:00:00Z'));
    expect(refusal.code).toBe('quota_exceeded');
    expect(refusal.details).toEqual({ quota: 'lead_explores', resets_at: '2026-03-15T00:00:00.000Z' });
  });
});
