/**
 * The Chart.js configuration for a result: bars of open roles with their shares, a p25–p75 band
 * with the median marked for salaries, and a line over time for the posted-week and posted-month
 * groupings. Colours come in resolved (a canvas cannot read CSS variables), so a theme change is a
 * new configuration.
 */
import type { ChartConfiguration, ChartDataset, Plugin, TooltipItem } from 'chart.js';
import { breakdownSeries, type Formats, type Insights, type InsightsRow, isTrend } from './model.js';

export interface Palette {
  /** Axis labels, legend, share labels and the median marker. */
  text: string;
  grid: string;
  /** One colour per series, used in turn. */
  series: readonly string[];
  /** The p25–p75 band behind a trend's median line. */
  band: string;
  fontFamily: string;
}

type ViewChart = ChartConfiguration<'bar' | 'line', (number | [number, number] | null)[], string>;
type ViewDataset = ChartDataset<'bar' | 'line', (number | [number, number] | null)[]>;

/** Enough height per bar to read its label; the frame around the chart scrolls past its own height. */
export function chartHeight(insights: Insights): number {
  return isTrend(insights.group_by) ? 200 : Math.max(120, insights.rows.length * 24 + 40);
}

export function chartConfig(insights: Insights, palette: Palette, formats: Formats): ViewChart {
  const trend = isTrend(insights.group_by);
  const salary = insights.metric === 'salary';
  const datasets = trend
    ? trendDatasets(insights, palette)
    : salary
      ? salaryDatasets(insights.rows, palette)
      : countDatasets(insights, palette);
  const valueAxis = {
    beginAtZero: !salary,
    stacked: !trend && !salary,
    grid: { color: palette.grid },
    ticks: {
      color: palette.text,
      callback: (value: number | string) =>
        salary ? formats.money(Number(value), insights.currency) : formats.count(Number(value)),
    },
  };
  const categoryAxis = {
    stacked: !trend && !salary,
    grid: { display: trend, color: palette.grid },
    // Period labels are long ("Week of 2026-09-07"): some are skipped rather than slanted.
    ticks: { color: palette.text, maxRotation: 0 },
  };
  return {
    type: trend ? 'line' : 'bar',
    data: { labels: insights.rows.map((row) => row.label), datasets },
    options: {
      // Drawn at once: nothing moves when the host switches theme, and a redraw is one frame.
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      indexAxis: trend ? 'x' : 'y',
      color: palette.text,
      font: { family: palette.fontFamily },
      layout: { padding: { right: !trend && !salary ? 52 : 8 } },
      scales: trend ? { x: categoryAxis, y: valueAxis } : { x: valueAxis, y: categoryAxis },
      plugins: {
        legend: {
          display: datasets.length > 1,
          // Point styles, so that the median's legend entry is a mark like the one in the chart.
          labels: { color: palette.text, usePointStyle: true, filter: (item) => item.text !== '' },
        },
        tooltip: {
          callbacks: {
            label: (item) => tooltipLabel(item, insights, formats),
            footer: (items) => trendFooter(items, insights.rows, formats),
          },
        },
      },
    },
    plugins: !trend && !salary ? [shareLabels(insights.rows, palette, formats)] : [],
  };
}

function seriesColour(palette: Palette, index: number): string {
  return palette.series[index % palette.series.length] ?? palette.text;
}

/** One bar per row, or one stacked part per breakdown entry. */
function countDatasets(insights: Insights, palette: Palette): ViewDataset[] {
  const series = insights.breakdown_by ? breakdownSeries(insights.rows) : [];
  if (series.length === 0) {
    return [
      {
        type: 'bar',
        label: 'Open roles',
        data: insights.rows.map((row) => row.count),
        backgroundColor: seriesColour(palette, 0),
      },
    ];
  }
  return series.map((entry, index) => ({
    type: 'bar',
    label: entry.label,
    data: insights.rows.map((row) => row.breakdown?.find((part) => part.key === entry.key)?.count ?? 0),
    backgroundColor: seriesColour(palette, index),
  }));
}

/** A floating bar from p25 to p75, and the median as a mark across it. */
function salaryDatasets(rows: readonly InsightsRow[], palette: Palette): ViewDataset[] {
  return [
    {
      type: 'bar',
      label: '25th to 75th percentile',
      data: rows.map(({ salary }) =>
        typeof salary?.p25 === 'number' && typeof salary.p75 === 'number' ? [salary.p25, salary.p75] : null,
      ),
      backgroundColor: seriesColour(palette, 0),
    },
    {
      type: 'line',
      label: 'Median',
      data: rows.map(({ salary }) => salary?.median ?? null),
      showLine: false,
      pointStyle: 'line',
      pointRotation: 90,
      pointRadius: 11,
      pointHoverRadius: 13,
      borderWidth: 3,
      borderColor: palette.text,
      backgroundColor: palette.text,
    },
  ];
}

function trendDatasets(insights: Insights, palette: Palette): ViewDataset[] {
  const line = (label: string, data: (number | null)[], colour: string): ViewDataset => ({
    type: 'line',
    label,
    data,
    borderColor: colour,
    backgroundColor: colour,
    spanGaps: true,
  });
  const { rows } = insights;
  if (insights.metric === 'salary') {
    const edge = (label: string, data: (number | null)[], fill: false | '-1'): ViewDataset => ({
      type: 'line',
      label,
      data,
      pointRadius: 0,
      pointHoverRadius: 0,
      borderWidth: 0,
      backgroundColor: palette.band,
      fill,
      spanGaps: true,
    });
    return [
      line(
        'Median',
        rows.map(({ salary }) => salary?.median ?? null),
        seriesColour(palette, 0),
      ),
      // The band is the area between its two edges; the lower edge has no legend entry of its own.
      edge(
        '',
        rows.map(({ salary }) => salary?.p25 ?? null),
        false,
      ),
      edge(
        '25th to 75th percentile',
        rows.map(({ salary }) => salary?.p75 ?? null),
        '-1',
      ),
    ];
  }
  const series = insights.breakdown_by ? breakdownSeries(rows) : [];
  if (series.length === 0)
    return [
      line(
        'Open roles',
        rows.map((row) => row.count),
        seriesColour(palette, 0),
      ),
    ];
  return series.map((entry, index) =>
    line(
      entry.label,
      rows.map((row) => row.breakdown?.find((part) => part.key === entry.key)?.count ?? 0),
      seriesColour(palette, index),
    ),
  );
}

function tooltipLabel(item: TooltipItem<'bar' | 'line'>, insights: Insights, formats: Formats): string {
  const value = item.raw;
  const money = (amount: number) => formats.money(amount, insights.currency);
  if (Array.isArray(value)) return `${item.dataset.label}: ${money(value[0])} – ${money(value[1])}`;
  if (typeof value !== 'number') return `${item.dataset.label}: –`;
  if (insights.metric === 'salary') return `${item.dataset.label}: ${money(value)}`;
  const row = insights.rows[item.dataIndex];
  const share = row && item.dataset.label === 'Open roles' ? ` (${formats.percent(row.share_percent)})` : '';
  return `${item.dataset.label}: ${formats.count(value)}${share}`;
}

/** A period's change against the one before: the trend, row by row. */
function trendFooter(
  items: TooltipItem<'bar' | 'line'>[],
  rows: readonly InsightsRow[],
  formats: Formats,
): string {
  const change = rows[items[0]?.dataIndex ?? -1]?.change_percent;
  return typeof change === 'number' ? `Change on the period before: ${formats.change(change)}` : '';
}

/** Each bar's share of all matching roles, written just past its end. */
function shareLabels(
  rows: readonly InsightsRow[],
  palette: Palette,
  formats: Formats,
): Plugin<'bar' | 'line'> {
  return {
    id: 'shareLabels',
    afterDatasetsDraw(chart) {
      // Stacked parts end where the last visible one does.
      const bars = chart.getSortedVisibleDatasetMetas().at(-1)?.data ?? [];
      const { ctx } = chart;
      ctx.save();
      ctx.fillStyle = palette.text;
      ctx.font = `12px ${palette.fontFamily}`;
      ctx.textBaseline = 'middle';
      bars.forEach((bar, index) => {
        const row = rows[index];
        if (row) ctx.fillText(formats.percent(row.share_percent), bar.x + 4, bar.y);
      });
      ctx.restore();
    },
  };
}
