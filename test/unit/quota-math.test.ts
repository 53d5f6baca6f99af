import { describe, expect, it } from 'vitest';
import {
  minuteWindowStart,
  nextUtcMidnight,
  quotaState,
  remainingOf,
  secondsToNextMinute,
  utcDay,
} from '../../src/mcp/quota-math.js';

describe('daily reset', () => {
  it('resets at the next 00:00 UTC', () => {
    expect(nextUtcMidnight(new Date('2026-03-14T13:45:00Z')).toISOString()).toBe('2026-03-15T00:00:00.000Z');
  });

  it('treats midnight itself as the start of a new day', () => {
    const midnight = new Date('2026-03-15T00:00:00Z');
    expect(utcDay(midnight)).toBe('2026-03-15');
    expect(nextUtcMidnight(midnight).toISOString()).toBe('2026-03-16T00:00:00.000Z');
  });

  it('counts by UTC day whatever the local offset of the input', () => {
    expect(utcDay(new Date('2026-03-14T23:30:00-02:00'))).toBe('2026-03-15');
  });

  it('crosses month and year ends', () => {
    expect(nextUtcMidnight(new Date('2026-12-31T23:59:59.999Z')).toISOString()).toBe(
      '2027-01-01T00:00:00.000Z',
    );
  });
});

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

describe('minute windows', () => {
  it('start on the minute', () => {
    expect(minuteWindowStart(new Date('2026-03-14T10:07:42.500Z')).toISOString()).toBe(
      '2026-03-14T10:07:00.000Z',
    );
  });

  it('tell a refused caller the whole seconds to the next window', () => {
    expect(secondsToNextMinute(new Date('2026-03-14T10:07:42.500Z'))).toBe(18);
    expect(secondsToNextMinute(new Date('2026-03-14T10:07:00.000Z'))).toBe(60);
  });

  it('never say retry in 0 seconds', () => {
    expect(secondsToNextMinute(new Date('2026-03-14T10:07:59.999Z'))).toBe(1);
  });
});
