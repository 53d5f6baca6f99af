import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import {
  breakdownSeries,
  createFormats,
  type Insights,
  quotaOf,
  readToolResult,
  regroupArguments,
  summaryOf,
  tableOf,
  titleOf,
} from '../../views/market-insights/model.js';

/** What the view makes of results, without a browser (the view itself: market-insights-view-browser.test.ts). */

const formats = createFormats('en-GB', 'UTC');

const QUOTA = { used: 3, limit: 250, remaining: 247, resets_at: '2026-11-02T00:00:00.000Z' };

const byWorkType: Insights = {
  group_by: 'work_type',
  breakdown_by: 'experience_level',
  metric: 'salary',
  currency: 'EUR',
  total: 412,
  returned: 2,
  rows: [
    {
      key: 'Hybrid',
      label: 'Hybrid',
      count: 212,
      share_percent: 51.5,
      salary: {
        currency: 'EUR',
        sample_size: 180,
        min: 48000,
        p25: 66000,
        median: 76000,
        p75: 88000,
        max: 125000,
        mean: 77400,
      },
      breakdown: [
        { key: 'Senior', label: 'Senior', count: 120, share_percent: 56.6 },
        { key: 'Mid', label: 'Mid', count: 92, share_percent: 43.4 },
      ],
    },
    {
      key: 'Remote',
      label: 'Remote',
      count: 120,
      share_percent: 29.1,
      salary: {
        currency: 'EUR',
        sample_size: 0,
        min: null,
        p25: null,
        median: null,
        p75: null,
        max: null,
        mean: null,
      },
      breakdown: [
        { key: 'Lead', label: 'Lead', count: 20, share_percent: 16.7 },
        { key: 'Senior', label: 'Senior', count: 100, share_percent: 83.3 },
      ],
    },
  ],
  other_count: 80,
  quota: QUOTA,
  notes: [],
};

const weekly: Insights = {
  group_by: 'posted_week',
  breakdown_by: null,
  metric: 'count',
  currency: 'GBP',
  total: 300,
  returned: 2,
  rows: [
    { key: '2026-10-19', label: 'Week of 2026-10-19', count: 100, share_percent: 33.3, change_percent: null },
    { key: '2026-10-26', label: 'Week of 2026-10-26', count: 125, share_percent: 41.7, change_percent: 25 },
  ],
  other_count: 75,
  quota: { ...QUOTA, limit: null, remaining: null },
  notes: ['The latest period is still in progress.'],
};

const asResult = (value: unknown, isError?: true): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  ...(isError ? { isError } : { structuredContent: value as Record<string, unknown> }),
});

describe('reading a tool result', () => {
  it('takes the figures from structuredContent, or from the text item when a host passes only content', () => {
    expect(readToolResult(asResult(byWorkType), formats)).toEqual({ insights: byWorkType });
    const textOnly = { content: [{ type: 'text', text: JSON.stringify(weekly) }] } as CallToolResult;
    expect(readToolResult(textOnly, formats)).toEqual({ insights: weekly });
  });

  it('says plainly when the answer holds no figures', () => {
    expect(readToolResult({ content: [{ type: 'text', text: 'not json' }] }, formats)).toEqual({
      problem: 'The answer could not be read as market figures.',
    });
  });

  it('puts refusals in plain words, with the time in the host’s zone', () => {
    const refusal = (code: string, details: Record<string, unknown> = {}, message = 'As the server said.') =>
      readToolResult(asResult({ error: { code, message, details } }, true), formats);
    expect(
      refusal('quota_exceeded', { quota: 'insight_queries', resets_at: '2026-11-02T00:00:00.000Z' }),
    ).toEqual({
      problem: "Today's market insight queries are used up. More are available from 2 Nov 2026, 00:00.",
    });
    expect(refusal('rate_limited', { retry_after_seconds: 12 })).toEqual({
      problem: 'Too many calls in the last minute. Try again in 12 seconds.',
    });
    expect(refusal('unavailable')).toEqual({
      problem: 'The data service is not answering right now. Nothing was charged; try again in a moment.',
    });
    expect(refusal('subscription_required')).toEqual({
      problem: 'Market figures need a paid plan with an active subscription.',
    });
    expect(refusal('insufficient_scope')).toEqual({
      problem: 'This connection may not read market figures: it was not granted the insights:read scope.',
    });
    // The server's own message already says what to change.
    expect(refusal('invalid_argument', { field: 'limit' }, 'limit must be at most 50.')).toEqual({
      problem: 'limit must be at most 50.',
    });
  });
});

describe('regrouping', () => {
  const assistantCall = {
    group_by: 'work_type' as const,
    breakdown_by: 'experience_level' as const,
    limit: 5,
    filters: { location: 'Germany' },
  };

  it('changes only what the control sets', () => {
    expect(regroupArguments(assistantCall, { metric: 'salary' })).toEqual({
      ...assistantCall,
      metric: 'salary',
    });
    expect(regroupArguments(assistantCall, { breakdown_by: null })).toEqual({
      group_by: 'work_type',
      limit: 5,
      filters: { location: 'Germany' },
    });
  });

  it('drops a breakdown by the dimension it now groups by, which the tool would refuse', () => {
    expect(regroupArguments(assistantCall, { group_by: 'experience_level' })).toEqual({
      group_by: 'experience_level',
      limit: 5,
      filters: { location: 'Germany' },
    });
  });
});

describe('the words and the table', () => {
  it('titles and sums up the result', () => {
    expect(titleOf(byWorkType)).toBe('Salaries by work type, split by experience level');
    expect(summaryOf(byWorkType, formats)).toBe('412 open roles · 2 groups shown · 80 in other groups');
    expect(summaryOf(weekly, formats)).toBe('300 open roles · 2 periods shown · 75 in earlier periods');
    expect(quotaOf(byWorkType, formats)).toBe('Market insight queries left today: 247 of 250.');
    expect(quotaOf(weekly, formats)).toBe('Market insight queries today: unlimited.');
  });

  it('gives each breakdown entry one series, in the order first seen', () => {
    expect(breakdownSeries(byWorkType.rows)).toEqual([
      { key: 'Senior', label: 'Senior' },
      { key: 'Mid', label: 'Mid' },
      { key: 'Lead', label: 'Lead' },
    ]);
  });

  it('tables salaries with their breakdown, and the roles in other groups', () => {
    expect(tableOf(byWorkType, formats)).toEqual({
      caption:
        'Salaries by work type, split by experience level: 412 open roles · 2 groups shown · 80 in other groups',
      head: [
        'Work type',
        'Roles',
        'Share',
        'By experience level',
        'With salary',
        '25th pct',
        'Median',
        '75th pct',
      ],
      body: [
        [
          'Hybrid',
          '212',
          '51.5%',
          'Senior 120 (56.6%), Mid 92 (43.4%)',
          '180',
          '€66,000',
          '€76,000',
          '€88,000',
        ],
        ['Remote', '120', '29.1%', 'Lead 20 (16.7%), Senior 100 (83.3%)', '0', '–', '–', '–'],
      ],
      textColumns: [0, 3],
      foot: ['Other groups', '80'],
    });
  });

  it('tables a trend with the change per period', () => {
    expect(tableOf(weekly, formats)).toMatchObject({
      head: ['Week posted', 'Roles', 'Share', 'Change'],
      body: [
        ['Week of 2026-10-19', '100', '33.3%', '–'],
        ['Week of 2026-10-26', '125', '41.7%', '+25%'],
      ],
      textColumns: [0],
      foot: ['Earlier periods', '75'],
    });
  });
});
