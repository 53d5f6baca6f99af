/**
 * What the view makes of `get_market_insights`, apart from the page: reading a tool result, the
 * figures as a table, the arguments of a regroup, and errors in plain words. No DOM here, so unit
 * tests read it without a browser (test/unit/market-insights-view.test.ts).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { Currency, InsightBreakdownBy, InsightGroupBy } from '../../src/domain/enums.js';
import type { marketInsightsInput } from '../../src/schemas/inputs.js';
import type { marketInsightsOutput } from '../../src/schemas/outputs.js';

export const TOOL_NAME = 'get_market_insights';

export type Insights = z.output<typeof marketInsightsOutput>;
export type InsightsRow = Insights['rows'][number];
export type InsightsArguments = z.input<typeof marketInsightsInput>;
export type InsightMetric = Insights['metric'];

/** The settings the controls change; filters and `limit` stay as the assistant chose them. */
export interface Regrouping {
  group_by?: InsightGroupBy;
  /** `null`: no breakdown. */
  breakdown_by?: InsightBreakdownBy | null;
  metric?: InsightMetric;
  currency?: Currency;
}

/** A result to draw, or why there is none, in words for the person looking at the view. */
export type Outcome = { insights: Insights } | { problem: string };

export const DIMENSION_LABELS: Record<InsightGroupBy, string> = {
  experience_level: 'Experience level',
  work_type: 'Work type',
  employment_type: 'Employment type',
  company: 'Company',
  skill: 'Skill',
  city: 'City',
  country: 'Country',
  industry: 'Industry',
  title: 'Job title',
  posted_week: 'Week posted',
  posted_month: 'Month posted',
};

export const METRIC_LABELS: Record<InsightMetric, string> = { count: 'Open roles', salary: 'Salary' };

/** Periods, oldest first, with a change against the period before: drawn as a line over time. */
export function isTrend(groupBy: InsightGroupBy): boolean {
  return groupBy === 'posted_week' || groupBy === 'posted_month';
}

/** Number, money and time formats in the host's locale and time zone (the browser's when it gives none). */
export interface Formats {
  count(value: number): string;
  percent(value: number): string;
  /** With a sign, for a change against the period before. */
  change(value: number): string;
  money(value: number, currency: Currency): string;
  time(iso: string): string;
}

export function createFormats(locale?: string, timeZone?: string): Formats {
  const count = new Intl.NumberFormat(locale);
  const percent = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  const change = new Intl.NumberFormat(locale, { maximumFractionDigits: 1, signDisplay: 'exceptZero' });
  const time = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone });
  return {
    count: (value) => count.format(value),
    percent: (value) => `${percent.format(value)}%`,
    change: (value) => `${change.format(value)}%`,
    money: (value, currency) =>
      new Intl.NumberFormat(locale, { style: 'currency', currency, maximumFractionDigits: 0 }).format(value),
    time: (iso) => time.format(new Date(iso)),
  };
}

/**
 * Hosts hand the view the whole tool result; the figures are in `structuredContent`, and in the
 * text item as JSON for hosts that pass on only `content`.
 */
export function readToolResult(result: CallToolResult, formats: Formats): Outcome {
  const text = result.content.find((item) => item.type === 'text')?.text;
  if (result.isError === true) return { problem: errorInPlainWords(parseJson(text), formats) };
  const value = result.structuredContent ?? parseJson(text);
  return isInsights(value)
    ? { insights: value }
    : { problem: 'The answer could not be read as market figures.' };
}

function parseJson(text: string | undefined): unknown {
  try {
    return JSON.parse(text ?? '');
  } catch {
    return undefined;
  }
}

function isInsights(value: unknown): value is Insights {
  const candidate = value as Partial<Insights> | undefined;
  return typeof candidate?.group_by === 'string' && Array.isArray(candidate.rows);
}

/** A tool error (`{ error: { code, message, details } }`) as a sentence for a person rather than an assistant. */
function errorInPlainWords(body: unknown, formats: Formats): string {
  const error = (body as { error?: { code?: unknown; message?: unknown; details?: Record<string, unknown> } })
    ?.error;
  const details = error?.details ?? {};
  switch (error?.code) {
    case 'quota_exceeded':
      return typeof details.resets_at === 'string'
        ? `Today's market insight queries are used up. More are available from ${formats.time(details.resets_at)}.`
        : "Today's market insight queries are used up.";
    case 'rate_limited':
      return `Too many calls in the last minute. Try again in ${details.retry_after_seconds} seconds.`;
    case 'subscription_required':
      return 'Market figures need a paid plan with an active subscription.';
    case 'insufficient_scope':
      return 'This connection may not read market figures: it was not granted the insights:read scope.';
    case 'unavailable':
      return 'The data service is not answering right now. Nothing was charged; try again in a moment.';
  }
  return typeof error?.message === 'string' ? error.message : 'The query failed.';
}

/** The arguments of the call after a control changed: everything else the assistant chose is kept. */
export function regroupArguments(current: InsightsArguments, change: Regrouping): InsightsArguments {
  const { breakdown_by, ...rest } = { ...current, ...change };
  // The tool refuses a breakdown by the grouping dimension itself: regrouping onto it drops the breakdown.
  if (breakdown_by === null || breakdown_by === undefined || breakdown_by === rest.group_by) return rest;
  return { ...rest, breakdown_by };
}

/** The breakdown's entries of every row, in the order first seen: one series each in the chart. */
export function breakdownSeries(rows: readonly InsightsRow[]): { key: string; label: string }[] {
  const series = new Map<string, string>();
  for (const row of rows) for (const entry of row.breakdown ?? []) series.set(entry.key, entry.label);
  return [...series].map(([key, label]) => ({ key, label }));
}

export function titleOf(insights: Insights): string {
  const measure = insights.metric === 'salary' ? 'Salaries' : 'Open roles';
  const by = DIMENSION_LABELS[insights.group_by].toLowerCase();
  const split = insights.breakdown_by
    ? `, split by ${DIMENSION_LABELS[insights.breakdown_by].toLowerCase()}`
    : '';
  return `${measure} by ${by}${split}`;
}

export function summaryOf(insights: Insights, formats: Formats): string {
  const trend = isTrend(insights.group_by);
  const parts = [
    `${formats.count(insights.total)} open roles`,
    `${formats.count(insights.returned)} ${trend ? 'periods' : 'groups'} shown`,
  ];
  if (insights.other_count > 0) {
    parts.push(`${formats.count(insights.other_count)} in ${trend ? 'earlier periods' : 'other groups'}`);
  }
  return parts.join(' · ');
}

export function quotaOf(insights: Insights, formats: Formats): string {
  const { remaining, limit } = insights.quota;
  if (remaining === null || limit === null) return 'Market insight queries today: unlimited.';
  return `Market insight queries left today: ${formats.count(remaining)} of ${formats.count(limit)}.`;
}

export interface Table {
  caption: string;
  head: string[];
  body: string[][];
  /** Columns of words rather than figures: aligned to the start, and free to wrap. */
  textColumns: number[];
  /** The roles beyond the rows shown, when there are any. */
  foot?: string[];
}

/** The same figures as the chart, so that the chart is never the only way to read them. */
export function tableOf(insights: Insights, formats: Formats): Table {
  const salary = insights.metric === 'salary';
  const trend = isTrend(insights.group_by);
  const breakdown = insights.breakdown_by;
  const money = (value: number | null | undefined) =>
    value === null || value === undefined ? '–' : formats.money(value, insights.currency);
  const head = [
    DIMENSION_LABELS[insights.group_by],
    'Roles',
    'Share',
    ...(breakdown ? [`By ${DIMENSION_LABELS[breakdown].toLowerCase()}`] : []),
    ...(salary ? ['With salary', '25th pct', 'Median', '75th pct'] : []),
    ...(trend ? ['Change'] : []),
  ];
  const body = insights.rows.map((row) => [
    row.label,
    formats.count(row.count),
    formats.percent(row.share_percent),
    ...(breakdown
      ? [
          (row.breakdown ?? [])
            .map(
              (entry) =>
                `${entry.label} ${formats.count(entry.count)} (${formats.percent(entry.share_percent)})`,
            )
            .join(', '),
        ]
      : []),
    ...(salary
      ? [
          formats.count(row.salary?.sample_size ?? 0),
          money(row.salary?.p25),
          money(row.salary?.median),
          money(row.salary?.p75),
        ]
      : []),
    ...(trend ? [typeof row.change_percent === 'number' ? formats.change(row.change_percent) : '–'] : []),
  ]);
  const table: Table = {
    caption: `${titleOf(insights)}: ${summaryOf(insights, formats)}`,
    head,
    body,
    textColumns: breakdown ? [0, 3] : [0],
  };
  if (insights.other_count > 0) {
    table.foot = [trend ? 'Earlier periods' : 'Other groups', formats.count(insights.other_count)];
  }
  return table;
}
