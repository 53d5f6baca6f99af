import { describe, expect, it } from 'vitest';
import {
  addMonthsClamped,
  isoDate,
  minuteWindowStart,
  nextCreditRenewal,
  nextUtcMidnight,
  secondsToNextMinute,
} from '../../src/domain/calendar.js';

const at = (iso: string) => new Date(iso);

describe('daily reset', () => {
  it('resets at the next 00:00 UTC', () => {
    expect(nextUtcMidnight(new Date('2026-03-14T13:45:00Z')).toISOString()).toBe('2026-03-15T00:00:00.000Z');
  });

  it('treats midnight itself as the start of a new day', () => {
    const midnight = new Date('2026-03-15T00:00:00Z');
    expect(isoDate(midnight)).toBe('2026-03-15');
    expect(nextUtcMidnight(midnight).toISOString()).toBe('2026-03-16T00:00:00.000Z');
  });

  it('counts by UTC day whatever the local offset of the input', () => {
    expect(isoDate(new Date('2026-03-14T23:30:00-02:00'))).toBe('2026-03-15');
  });

  it('crosses month and year ends', () => {
    expect(nextUtcMidnight(new Date('2026-12-31T23:59:59.999Z')).toISOString()).toBe(
      '2027-01-01T00:00:00.000Z',
    );
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

describe('monthly credit renewal dates', () => {
  it('keeps the day and time of creation', () => {
    expect(nextCreditRenewal(at('2026-03-15T09:30:00Z'), at('2026-03-15T09:30:00Z'))).toEqual(
      at('2026-04-15T09:30:00Z'),
    );
  });

  it('clamps the 31st to the end of shorter months and returns to the 31st after', () => {
    const anchor = at('2026-01-31T08:00:00Z');
    expect(addMonthsClamped(anchor, 1)).toEqual(at('2026-02-28T08:00:00Z'));
    expect(addMonthsClamped(anchor, 2)).toEqual(at('2026-03-31T08:00:00Z'));
    expect(addMonthsClamped(anchor, 3)).toEqual(at('2026-04-30T08:00:00Z'));
    expect(addMonthsClamped(at('2028-01-31T00:00:00Z'), 1)).toEqual(at('2028-02-29T00:00:00Z'));
  });

  it('crosses the year', () => {
    expect(nextCreditRenewal(at('2026-12-31T00:00:00Z'), at('2027-01-05T00:00:00Z'))).toEqual(
      at('2027-01-31T00:00:00Z'),
    );
  });

  it('is strictly after now: at the renewal instant the next one is a month on', () => {
    const anchor = at('2026-01-31T08:00:00Z');
    expect(nextCreditRenewal(anchor, at('2026-02-28T07:59:59Z'))).toEqual(at('2026-02-28T08:00:00Z'));
    expect(nextCreditRenewal(anchor, at('2026-02-28T08:00:00Z'))).toEqual(at('2026-03-31T08:00:00Z'));
  });

  it('renews a full month after creation even when the clock reads a little before it', () => {
    const anchor = at('2026-05-10T12:00:00Z');
    expect(nextCreditRenewal(anchor, at('2026-05-10T11:59:59Z'))).toEqual(at('2026-06-10T12:00:00Z'));
  });

  it('skips the renewals an idle account missed', () => {
    expect(nextCreditRenewal(at('2026-01-31T08:00:00Z'), at('2026-07-01T00:00:00Z'))).toEqual(
      at('2026-07-31T08:00:00Z'),
    );
    expect(nextCreditRenewal(at('2024-02-29T00:00:00Z'), at('2026-02-28T12:00:00Z'))).toEqual(
      at('2026-03-29T00:00:00Z'),
    );
  });
});
